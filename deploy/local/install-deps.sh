#!/usr/bin/env bash
# Installs the Debian packages Kiln needs to build, test and run locally — only the missing ones,
# so re-running is instant and never touches apt when nothing is missing. With --test-tools, also the programs the
# tests check documents and pages with (test.sh passes it): poppler's pdftotext/pdffonts/pdftoppm/pdfimages, qpdf,
# epubcheck (on Java), python-docx, LibreOffice Writer (headless), Chromium (headless) and chromedriver (the console's
# browser tests drive Chromium over WebDriver), unzip, and libjpeg-turbo's jpegtran/djpeg (progressive JPEGs, and
# decoding them); and what checks the deployment files offline: systemd-analyze,
# promtool (Debian's prometheus package; only promtool is used), kubernetes-validate (PyPI) and kubectl's kustomize;
# and what builds and runs the image in deploy/container: debootstrap, podman, buildah, runc; and iproute2's `ip netns`,
# with which AcrossHostsTests makes hosts of network namespaces.
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env.sh source-path=SCRIPTDIR
source "$here/env.sh"

# C libraries the Swift system-library targets link against (Cairo and Pango draw the chat videos, with the Inter and
# Noto Color Emoji fonts), the two servers, ffmpeg to encode the videos, curl/python3 for the scripts themselves.
packages=(pkg-config libhiredis-dev libpq-dev libcurl4-openssl-dev libcairo2-dev libpango1.0-dev fonts-noto-color-emoji fonts-inter
  redis-server postgresql ffmpeg curl python3 zlib1g-dev)
[[ ${1:-} == --test-tools ]] &&
  packages+=(poppler-utils qpdf epubcheck default-jre-headless python3-docx libreoffice-writer-nogui chromium chromium-driver unzip libjpeg-turbo-progs
    systemd prometheus debootstrap podman buildah runc iproute2)
# pip, for moto below, only when python3 has none of its own (a pyenv or venv python brings one).
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
missing=()
for p in "${packages[@]}"; do
  # `dpkg -s` also succeeds for removed packages whose config files remain, so check the status line.
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "Installing missing packages: ${missing[*]}"
  if [[ $EUID -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    kiln_die "missing packages: ${missing[*]} — not root and no sudo; install them with apt-get as root"
  fi
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Installs a PyPI requirement unless python3 can already import the module it provides.
pip_install_missing() {
  local module=$1 requirement=$2 why=$3
  python3 -c "import $module" >/dev/null 2>&1 && return 0
  echo "Installing $requirement from PyPI"
  local pip_args=()
  # Debian's own python3 refuses pip installs (PEP 668) unless told; pyenv and venv pythons do not mind.
  [[ -e $(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')/EXTERNALLY-MANAGED ]] && pip_args+=(--break-system-packages)
  # Without write access to python3's site-packages, install for this user.
  [[ -w $(python3 -c 'import sysconfig; print(sysconfig.get_path("purelib"))') ]] || pip_args+=(--user)
  python3 -m pip install --quiet "${pip_args[@]}" "$requirement"
  python3 -c "import $module" >/dev/null 2>&1 || kiln_die "$requirement did not install; $why"
}

# moto's S3 server, which the S3 tests (S3ClientTests, KilnStoreTests, KilnIntegrationTests) start with signature
# checks on. Pinned to the version Tests/Support/S3Fixtures/moto_server.py was written against: it patches one moto internal.
pip_install_missing moto.server 'moto[server]==5.2.1' "S3ClientTests need it"
if [[ ${1:-} == --test-tools ]]; then
  # The MCP tests' independent client (Tests/Integration/MCPClient/mcp_flow.py): the official Python SDK, version 2.x.
  pip_install_missing mcp.client.streamable_http 'mcp==2.3.0' "MCPTests need it"
  # Kubernetes' own schemas, for deploy/kubernetes/validate.py (it brings jsonschema and PyYAML too).
  pip_install_missing kubernetes_validate 'kubernetes-validate==1.37.0' "deploy/kubernetes/validate.py needs it"
  # kustomize comes inside kubectl, which the machine image ships (Debian's kubectl is too old for the kustomization).
  command -v kubectl >/dev/null 2>&1 ||
    kiln_die "kubectl is not on PATH; deploy/kubernetes/validate.py renders the manifests with \`kubectl kustomize\` (kustomize 5)"
fi

# env.sh already added /opt/swift/usr/bin to PATH if swift lives there.
command -v swift >/dev/null 2>&1 ||
  kiln_die "swift is not on PATH (nor in /opt/swift/usr/bin); install a Swift 6 toolchain from swift.org"
