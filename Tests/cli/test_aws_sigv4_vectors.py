"""The committed AWS Signature Version 4 vectors (Tests/AFKitTests/Fixtures/aws-sigv4-vectors.json,
which AWSSigV4Tests signs with AFKit) still equal what botocore computes: recomputed whenever
botocore is importable, so a change in botocore's canonicalisation or an edited fixture shows."""

import json

import pytest

import aws_sigv4_vectors


def test_the_fixture_equals_what_botocore_computes_now():
    pytest.importorskip("botocore")
    committed = json.loads(aws_sigv4_vectors.FIXTURE.read_text())
    fresh = aws_sigv4_vectors.vectors()
    assert [v["name"] for v in committed] == [v["name"] for v in fresh]
    for old, new in zip(committed, fresh):
        assert old == new, old["name"]


def test_the_fixture_covers_what_the_signer_must_get_right():
    committed = json.loads(aws_sigv4_vectors.FIXTURE.read_text())
    canonical = [v["expected"]["canonicalRequest"] for v in committed]
    services = {v["service"] for v in committed}
    assert {"s3", "execute-api", "iam"} <= services
    assert any("X-Amz-Security-Token" in dict(map(tuple, v["expected"]["headers"])) for v in committed)
    assert any(v["payload"] == "UNSIGNED-PAYLOAD" for v in committed)
    assert any("%2520" in c.split("\n")[1] for c in canonical)  # a non-S3 path encoded twice
    assert any("%21%2A%27%28%29" in c.split("\n")[2] for c in canonical)  # reserved characters in a query
