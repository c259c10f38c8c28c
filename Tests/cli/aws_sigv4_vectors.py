"""AWS Signature Version 4 test vectors computed with botocore's SigV4Auth and S3SigV4Auth.

    python3 Tests/cli/aws_sigv4_vectors.py     # rewrites Tests/AFKitTests/Fixtures/aws-sigv4-vectors.json

AFKit's AWSSigV4 signer is checked against the committed vectors (AWSSigV4Tests);
test_aws_sigv4_vectors.py recomputes them whenever botocore is importable, so a change in either
shows up. Each case is a request as afcli sends it: the URL as on the wire, the headers, the body's
SHA-256 (or UNSIGNED-PAYLOAD), the credentials and the time. botocore is handed the query as
its decoded parameters (how its own clients sign), so the vectors also pin how afcli
canonicalises a query written with other percent-encodings.
"""

import datetime
import hashlib
import json
import sys
from pathlib import Path
from unittest import mock
from urllib.parse import unquote_to_bytes, urlsplit

FIXTURE = Path(__file__).resolve().parents[1] / "AFKitTests" / "Fixtures" / "aws-sigv4-vectors.json"

KEY = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEMv//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token/with+slashes=="
TIME = 1440938160  # 2015-08-30T12:36:00Z, the time of AWS's own test suite

# name, method, url, headers, body (bytes, or None for UNSIGNED-PAYLOAD), region, service, token
CASES = [
    ("get-vanilla", "GET", "https://example.amazonaws.com/", [], b"", "us-east-1", "service", None),
    ("get-unsorted-query", "GET", "https://example.amazonaws.com/items?b=2&a=1&c", [], b"",
     "us-east-1", "execute-api", None),
    ("get-reserved-query", "GET",
     "https://example.amazonaws.com/?q=a%20b&plus=1%2B1&raw=x+y&sym=!*'()&slash=a/b&colon=a:b&comma=a,b"
     "&tilde=~&pct=%41%2f%2F&utf8=caf%C3%A9&eq=a=b&empty=",
     [], b"", "eu-west-1", "execute-api", None),
    ("get-repeated-keys", "GET", "https://example.amazonaws.com/?k=2&k=10&k=1&a=z&k=", [], b"",
     "us-east-1", "iam", None),
    ("get-double-ampersand", "GET", "https://example.amazonaws.com/?a=1&&b=2", [], b"", "us-east-1", "iam", None),
    ("post-form-body", "POST", "https://iam.amazonaws.com/",
     [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
     b"Action=ListUsers&Version=2010-05-08", "us-east-1", "iam", None),
    ("post-json-session-token", "POST", "https://abc123.execute-api.eu-central-1.amazonaws.com/prod/items",
     [("Content-Type", "application/json"), ("X-Amz-Security-Token", "old")], b'{"name":"x"}',
     "eu-central-1", "execute-api", TOKEN),
    ("headers-trimmed-and-repeated", "GET", "https://example.amazonaws.com/",
     [("My-Header1", "  value1  "), ("My-Header2", '"a   b   c"'), ("X-Multi", "b"), ("x-multi", " a "),
      ("User-Agent", "afcli/1.0"), ("Connection", "keep-alive"), ("Expect", "100-continue"),
      ("Authorization", "Basic old"), ("Accept", "*/*")],
     b"", "us-east-1", "service", None),
    ("explicit-host-and-port", "GET", "http://LocalHost:8080/path", [("Host", "localhost:8080")], b"",
     "us-east-1", "service", None),
    ("url-host-default-port", "GET", "https://Example.AmazonAWS.com:443/a", [], b"", "us-east-1", "service", None),
    ("url-host-other-port", "GET", "http://user:pw@example.amazonaws.com:9000/a", [], b"",
     "us-east-1", "service", None),
    ("ipv6-host", "GET", "http://[::1]:9000/", [], b"", "us-east-1", "service", None),
    ("path-dots-and-slashes", "GET", "https://example.amazonaws.com/a/./b/../c//d/", [], b"",
     "us-east-1", "service", None),
    ("path-space-unicode-reserved", "GET", "https://example.amazonaws.com/my%20file/caf%C3%A9/a:b@c!$=+,;*",
     [], b"", "us-east-1", "execute-api", None),
    ("path-empty", "GET", "https://example.amazonaws.com", [], b"", "us-east-1", "service", None),
    ("path-dot-dot-above-root", "GET", "https://example.amazonaws.com/../../x/..", [], b"",
     "us-east-1", "service", None),
    ("s3-get-object", "GET", "https://examplebucket.s3.amazonaws.com/photos/my%20photo%20(1).jpg?versionId=3&acl",
     [("Range", "bytes=0-9")], b"", "us-east-1", "s3", None),
    ("s3-path-kept-as-is", "GET", "https://s3.amazonaws.com/bucket/a/./b/../c//d%2Fe", [], b"",
     "us-east-1", "s3", None),
    ("s3-put-body-session-token", "PUT", "https://examplebucket.s3.amazonaws.com/test%24file.text",
     [("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
     b"Welcome to Amazon S3.", "us-east-1", "s3", TOKEN),
    ("s3-unsigned-payload", "PUT", "https://examplebucket.s3.amazonaws.com/big.bin",
     [("Content-Length", "1073741824")], None, "us-east-1", "s3", None),
    ("service-unsigned-payload", "POST", "https://example.amazonaws.com/upload", [], None,
     "us-west-2", "execute-api", TOKEN),
    ("lowercase-method", "delete", "https://example.amazonaws.com/x", [], b"", "us-east-1", "service", None),
]

# The headers the signer sets, in the order botocore leaves them.
SET_HEADERS = {"authorization", "x-amz-date", "date", "x-amz-security-token", "x-amz-content-sha256"}


def query_params(url):
    """The query's pairs decoded (percent-escapes only: `+` stays a plus), as botocore's clients
    would hand them to the signer."""
    query = urlsplit(url).query
    if not query:
        return []
    pairs = []
    for pair in query.split("&"):
        key, _, value = pair.partition("=")
        # Valid UTF-8 in every case here: botocore quotes text (str()).
        pairs.append((unquote_to_bytes(key).decode(), unquote_to_bytes(value).decode()))
    return pairs


def vector(name, method, url, headers, body, region, service, token):
    from botocore.auth import S3SigV4Auth, SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    from botocore.config import Config

    credentials = Credentials(KEY, SECRET, token)
    signer = (S3SigV4Auth if service == "s3" else SigV4Auth)(credentials, service, region)
    request = AWSRequest(method=method, url=url, data=body or b"", params=query_params(url))
    for header, value in headers:
        request.headers[header] = value
    if body is None:
        request.context["payload_signing_enabled"] = False
        request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
        payload = "UNSIGNED-PAYLOAD"
    else:
        payload = hashlib.sha256(body).hexdigest()
    # What add_auth signs is kept as it passes (recomputing it afterwards would see the
    # Authorization header among the signed ones).
    seen = {}
    canonical_request, string_to_sign = signer.canonical_request, signer.string_to_sign
    signer.canonical_request = lambda r: seen.setdefault("canonical", canonical_request(r))
    signer.string_to_sign = lambda r, c: seen.setdefault("string_to_sign", string_to_sign(r, c))
    now = datetime.datetime.fromtimestamp(TIME, datetime.timezone.utc).replace(tzinfo=None)
    with mock.patch("botocore.auth.get_current_datetime", return_value=now):
        signer.add_auth(request)
    authorization = request.headers["Authorization"]
    return {
        "name": name,
        "method": method,
        "url": url,
        "headers": [list(pair) for pair in headers],
        "payload": payload,
        "region": region,
        "service": service,
        "accessKey": KEY,
        "secretKey": SECRET,
        "sessionToken": token,
        "time": TIME,
        "expected": {
            "canonicalRequest": seen["canonical"],
            "stringToSign": seen["string_to_sign"],
            "signature": authorization.rsplit("Signature=", 1)[1],
            "headers": [[n, v] for n, v in request.headers.items() if n.lower() in SET_HEADERS],
        },
    }


def vectors():
    return [vector(*case) for case in CASES]


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(vectors(), indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(CASES)} vectors to {FIXTURE}", file=sys.stderr)
