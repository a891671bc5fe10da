#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Signs a fixed set of S3 requests with botocore's own SigV4 signers and prints the cases with
botocore's answers as JSON: tests/fixtures/storage/sigv4-botocore.json is this script's output, and
test_storage_sigv4 checks Gantry's signer against it (and re-runs this script where botocore is
importable, so a newer botocore that disagreed would be noticed).

Usage: sigv4_botocore.py > tests/fixtures/storage/sigv4-botocore.json

Only stable internals are used (canonical_request, string_to_sign, signature): the time is set on
the request's context, never read from the clock, so the output is the same on every run."""

import json
import sys
from urllib.parse import parse_qsl, quote, urlsplit

from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

ACCESS = "AKIAIOSFODNN7EXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEXAMPLE//////////wEaCXVzLWVhc3QtMSJHMEUCIQ+Example/Token=="

# name, mode, method, host, path (as sent), query (decoded pairs), headers, body (None: unsigned),
# token, region, timestamp, expires (presign)
CASES = [
    ("list-prefix", "header", "GET", "127.0.0.1:9000", "/data/", [("list-type", "2"), ("prefix", "runs/2026 12/"), ("max-keys", "1000")], [], b"", False, "us-east-1", "20261205T101500Z", 0),
    ("list-continuation", "header", "GET", "s3.eu-central-1.wasabisys.com", "/my-bucket", [("list-type", "2"), ("continuation-token", "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="), ("prefix", "")], [], b"", False, "eu-central-1", "20261205T101500Z", 0),
    ("put-sha256", "header", "PUT", "localhost:9000", "/bucket/checkpoints/step%20100/model.safetensors", [], [("Content-Type", "application/octet-stream")], b"weights\n", False, "us-east-1", "20261205T101500Z", 0),
    ("get-unsigned", "header", "GET", "abc123.r2.cloudflarestorage.com", "/datasets/%E6%95%B0%E6%8D%AE/part-0001.parquet", [], [("Range", "bytes=0-1023")], None, False, "auto", "20261205T235959Z", 0),
    ("head-session-token", "header", "HEAD", "examplebucket.s3.amazonaws.com", "/a%2Bb/c%3Dd.txt", [], [], b"", True, "us-west-2", "20261205T000001Z", 0),
    ("presign-get", "presign", "GET", "127.0.0.1:9000", "/data/runs/out%20file.bin", [], [], None, False, "us-east-1", "20261205T101500Z", 3600),
    ("presign-put-md5", "presign", "PUT", "127.0.0.1:9000", "/data/up/ckpt.pt", [], [("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg=="), ("x-amz-meta-sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")], None, False, "us-east-1", "20261205T101500Z", 900),
    ("presign-token", "presign", "GET", "s3.us-east-1.amazonaws.com", "/examplebucket/test.txt", [], [], None, True, "us-east-1", "20261205T101500Z", 3600),
    ("presign-aws-example", "presign", "GET", "examplebucket.s3.amazonaws.com", "/test.txt", [], [], None, False, "us-east-1", "20130524T000000Z", 86400),
]


class FixedTimeHeaderAuth(S3SigV4Auth):
    def payload(self, request):
        if request.context.get("unsigned"):
            return "UNSIGNED-PAYLOAD"
        return super().payload(request)


def sign(case):
    name, mode, method, host, path, query, headers, body, token, region, timestamp, expires = case
    credentials = Credentials(ACCESS, SECRET, TOKEN if token else None)
    url = "https://" + host + path
    request = AWSRequest(method=method, url=url, headers=dict(headers), data=body or b"")
    request.context["timestamp"] = timestamp
    if mode == "header":
        request.params = list(query)
        request.context["unsigned"] = body is None
        auth = FixedTimeHeaderAuth(credentials, "s3", region)
    else:
        if query:
            request.url = url + "?" + "&".join(quote(k, safe="-_.~") + "=" + quote(v, safe="-_.~") for k, v in query)
        auth = S3SigV4QueryAuth(credentials, "s3", region, expires=expires)
    auth._modify_request_before_signing(request)
    canonical = auth.canonical_request(request)
    string_to_sign = auth.string_to_sign(request, canonical)
    signature = auth.signature(string_to_sign, request)
    auth._inject_signature_to_request(request, signature)
    out = {
        "name": name, "mode": mode, "method": method, "host": host, "path": path,
        "query": [list(p) for p in query], "headers": [list(h) for h in headers],
        "body": None if body is None else body.decode(), "session_token": TOKEN if token else "",
        "region": region, "timestamp": timestamp, "expires": expires,
        "canonical_request": canonical, "string_to_sign": string_to_sign, "signature": signature,
    }
    if mode == "header":
        out["authorization"] = request.headers["Authorization"]
        out["content_sha256"] = request.headers["X-Amz-Content-SHA256"]
    else:
        out["presigned_query"] = sorted([list(p) for p in parse_qsl(urlsplit(request.url).query, keep_blank_values=True)])
    return out


def main():
    document = {"access_key_id": ACCESS, "secret_access_key": SECRET, "cases": [sign(c) for c in CASES]}
    json.dump(document, sys.stdout, indent=1, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
