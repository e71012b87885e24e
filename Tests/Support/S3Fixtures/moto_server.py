"""moto's S3 server for the S3 tests (S3ClientTests, KilnStoreTests, KilnIntegrationTests), with moto's IAM checks on from the first request.

Creates one IAM user with an access key and an inline policy allowing s3:*, prints
{"port": ..., "accessKey": ..., "secretKey": ...} as one JSON line on stdout, then serves on a free
loopback port until stdin closes (so it dies with the test process).

moto checks SigV4 signatures only for access keys it knows: keys of IAM users it holds, or of roles assumed
through its STS. A key it does not know gets 403 InvalidAccessKeyId before any signature is computed, so the
user must exist in this process before the first request; it is made here directly in moto's IAM backend,
because with INITIAL_NO_AUTH_ACTION_COUNT=0 an IAM API call would itself need a known key.

One repair: moto 5.2.1 rebuilds the canonical URI from werkzeug's `request.url`, which decodes the path and
re-quotes it loosely (it leaves `ü`, `+`, `=`, `!`, `%`... unencoded), while S3 and every SigV4 client encode
each path segment with only `A-Z a-z 0-9 - . _ ~` left bare. So moto rejects a correctly signed request for
any key beyond those characters and the space. The repair computes the canonical URI from the raw request
path the way S3 does (decode each segment, encode it again); the signature itself is still checked by moto.
"""

import json
import logging
import os
import sys
import threading
from urllib.parse import quote, unquote, urlsplit

# moto reads this when it is imported: 0 means every request, the first one included, is authenticated.
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"

from moto.core import DEFAULT_ACCOUNT_ID  # noqa: E402
from moto.iam import access_control  # noqa: E402
from moto.iam.models import iam_backends  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

USER = "kiln-tests"
POLICY = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}

# The raw request path of the request this thread serves (werkzeug's threaded server: one thread per request).
request_path = threading.local()


def remember_raw_path(app):
    def wrapped(environ, start_response):
        raw = urlsplit(environ.get("RAW_URI") or environ.get("REQUEST_URI") or "")
        request_path.raw = raw.path
        request_path.query = raw.query
        return app(environ, start_response)

    return wrapped


def canonical_uri(raw_path):
    """S3's canonical URI: each segment decoded, then encoded with only unreserved characters left bare."""
    return "/".join(quote(unquote(segment), safe="~") for segment in raw_path.split("/"))


original_create_aws_request = access_control.S3IAMRequest._create_aws_request


def create_aws_request(self):
    request = original_create_aws_request(self)
    raw = getattr(request_path, "raw", "")
    if raw:
        # The query as sent, too: werkzeug's URL decodes it and quotes it again loosely (`%2B` comes back as `+`,
        # which botocore then reads as a space), as it does the path.
        query = getattr(request_path, "query", "")
        request.url = canonical_uri(raw) + ("?" + query if query else "")
    return request


access_control.S3IAMRequest._create_aws_request = create_aws_request


def main():
    # werkzeug logs every request to stderr, which the test run would show.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    iam = iam_backends[DEFAULT_ACCOUNT_ID]["aws"]
    iam.create_user(region_name="us-east-1", user_name=USER)
    iam.put_user_policy(USER, "s3-all", json.dumps(POLICY))
    key = iam.create_access_key(USER)

    server = make_server(
        "127.0.0.1", 0, remember_raw_path(DomainDispatcherApplication(create_backend_app)), threaded=True
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({
        "port": server.server_address[1],
        "accessKey": key.access_key_id,
        "secretKey": key.secret_access_key,
    }), flush=True)
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
