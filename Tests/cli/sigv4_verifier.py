"""Checks an AWS Signature Version 4 the way a server does: by recomputing it from the request
as received. With botocore importable, botocore's SigV4Auth/S3SigV4Auth signs the same request at
the same time; its own small SigV4 (AWS's documented algorithm) always does too, so the check
never depends on afcli's signer."""

import datetime
import hashlib
import hmac
import re
from unittest import mock
from urllib.parse import quote, unquote_to_bytes, urlsplit

AUTH = re.compile(
    r"AWS4-HMAC-SHA256 Credential=(?P<key>[^/]+)/(?P<date>\d{8})/(?P<region>[^/]+)/(?P<service>[^/]+)/aws4_request, "
    r"SignedHeaders=(?P<names>[^,]+), Signature=(?P<signature>[0-9a-f]{64})$")


def _pairs(query):
    pairs = []
    for pair in query.split("&") if query else []:
        key, _, value = pair.partition("=")
        pairs.append((unquote_to_bytes(key), unquote_to_bytes(value)))
    return pairs


def _own_signature(request, secret, region, service, names):
    """AWS's algorithm, written from its documentation."""
    split = urlsplit(request.target)
    enc = lambda b: quote(b, safe="-_.~")
    query = "&".join(f"{k}={v}" for k, v in sorted((enc(k), enc(v)) for k, v in _pairs(split.query)))
    path = split.path or "/"
    if service != "s3":
        path = quote(path, safe="/-_.~")
    headers = {}
    for name, value in request.headers:
        if name.lower() in names:
            headers.setdefault(name.lower(), []).append(" ".join(value.split()))
    canonical_headers = "".join(f"{n}:{','.join(headers[n])}\n" for n in names)
    payload = hashlib.sha256(request.body).hexdigest()
    if service == "s3":
        payload = request.header("X-Amz-Content-SHA256")
    canonical = "\n".join([request.method, path, query, canonical_headers, ";".join(names), payload])
    timestamp = request.header("X-Amz-Date")
    scope = f"{timestamp[:8]}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", timestamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in [timestamp[:8], region, service, "aws4_request"]:
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


def _botocore_signature(request, base_url, key, secret, token, region, service, names):
    try:
        from botocore.auth import S3SigV4Auth, SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
    except ImportError:
        return None
    split = urlsplit(request.target)
    params = [(k.decode(), v.decode()) for k, v in _pairs(split.query)]
    aws = AWSRequest(method=request.method, url=base_url + split.path, data=request.body, params=params)
    for name, value in request.headers:
        if name.lower() in names and name.lower() not in ("x-amz-date", "x-amz-security-token"):
            aws.headers[name] = value
    signer = (S3SigV4Auth if service == "s3" else SigV4Auth)(Credentials(key, secret, token), service, region)
    now = datetime.datetime.strptime(request.header("X-Amz-Date"), "%Y%m%dT%H%M%SZ")
    with mock.patch("botocore.auth.get_current_datetime", return_value=now):
        signer.add_auth(aws)
    return AUTH.match(aws.headers["Authorization"]).group("signature")


def verify(request, base_url, key, secret, token=None):
    """The reason the request's signature is wrong, or None when it verifies."""
    match = AUTH.match(request.header("Authorization") or "")
    if not match:
        return f"no SigV4 Authorization: {request.header('Authorization')!r}"
    if match["key"] != key:
        return f"signed with key {match['key']}"
    if token is not None and request.header("X-Amz-Security-Token") != token:
        return "no X-Amz-Security-Token"
    names = match["names"].split(";")
    if token is not None and "x-amz-security-token" not in names:
        return "X-Amz-Security-Token is not signed"
    own = _own_signature(request, secret, match["region"], match["service"], names)
    if own != match["signature"]:
        return f"signature {match['signature']} != recomputed {own}"
    boto = _botocore_signature(request, base_url, key, secret, token, match["region"], match["service"], names)
    if boto is not None and boto != match["signature"]:
        return f"signature {match['signature']} != botocore's {boto}"
    return None
