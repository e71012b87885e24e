"""Writes the local stack's policies: a policies file with one tenant's JWT key set replaced by a development one.

`python3 deploy/local/dev-policies.py <policies> <output> <tenant> <key set>`: `<output>` is `<policies>` with
`<tenant>`'s `jwt.jwks_file` set to `<key set>` (from `kiln-dev mcp keys`), and every relative path in it (key sets, App
Store root certificates) made absolute, since the output lives elsewhere (under .kiln/). The production file is left
as it is.
"""

import json
import os
import sys


def main(source, target, tenant, key_set):
    base = os.path.dirname(os.path.abspath(source))

    def absolute(path):
        return path if path.startswith("/") else os.path.join(base, path)

    with open(source) as file:
        policies = json.load(file)
    for policy in policies.values():
        app_store = policy.get("app_store", {})
        if "root_certificates" in app_store:
            app_store["root_certificates"] = [absolute(path) for path in app_store["root_certificates"]]
        if "jwks_file" in policy.get("jwt", {}):
            policy["jwt"]["jwks_file"] = absolute(policy["jwt"]["jwks_file"])
    policies[tenant]["jwt"]["jwks_file"] = os.path.abspath(key_set)
    with open(target, "w") as file:
        json.dump(policies, file, indent=2)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
