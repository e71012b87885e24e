#!/usr/bin/env bash
# Cuts the client package (KilnClient/) out of this repository into a branch of its own whose root is the package, the
# form in which an app adds it: SwiftPM and Xcode take a package from a repository's root. The branch keeps the history
# of every commit that touched KilnClient/ (git subtree split), so publishing it again adds only the new commits.
#
#   deploy/client/split.sh                      the branch `kiln-client` in this repository
#   deploy/client/split.sh --tag 1.0.0          and a tag on its tip, the version apps depend on
#   deploy/client/split.sh --push URL [--tag V] and pushed to the client's own repository, as its main (and the tag)
set -euo pipefail
branch=kiln-client
remote=""
tag=""
while (($#)); do
    case "$1" in
        --push) remote=${2:?--push takes the client repository URL}; shift 2 ;;
        --tag) tag=${2:?--tag takes a version}; shift 2 ;;
        --branch) branch=${2:?--branch takes a name}; shift 2 ;;
        *) echo "usage: $0 [--branch NAME] [--tag VERSION] [--push URL]" >&2; exit 2 ;;
    esac
done
cd -- "$(git -C "$(dirname -- "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
tip=$(git subtree split --prefix=KilnClient 2>/dev/null)
git branch --force "$branch" "$tip"
echo "the client package at $tip, on the branch $branch"
if [[ -n "$tag" ]]; then
    git tag --force "client-$tag" "$tip"
    echo "tagged client-$tag here; the client's repository gets it as $tag"
fi
if [[ -n "$remote" ]]; then
    git push "$remote" "$branch:main"
    [[ -z "$tag" ]] || git push "$remote" "client-$tag:refs/tags/$tag"
fi
