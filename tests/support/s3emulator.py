#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A small S3-compatible server for Gantry's tests: path-style buckets on 127.0.0.1, objects in
memory, and every request's AWS Signature Version 4 checked with botocore's own signer
(botocore.auth.S3SigV4Auth for the Authorization header, S3SigV4QueryAuth for presigned URLs),
so a mistake in Gantry's signer cannot be hidden by the same mistake here.

Operations: ListObjectsV2 (prefix, delimiter, max-keys, continuation-token), GetObject, HeadObject,
PutObject (Content-MD5 and x-amz-content-sha256 checked, x-amz-meta-* kept), DeleteObject, GetObject's
Range (bytes=N- and bytes=N-M, answered 206), and multipart uploads (Create, UploadPart, ListParts,
Complete, Abort; --min-part-size for every part but the last).
Errors in S3's XML format: InvalidAccessKeyId, SignatureDoesNotMatch, ExpiredToken, InvalidToken,
RequestTimeTooSkewed, AuthorizationHeaderMalformed, AccessDenied (an expired presigned URL),
NoSuchBucket, NoSuchKey, BadDigest, XAmzContentSHA256Mismatch.

Control (no signature; tests only), under /_emulator/:
  POST presign-skew?seconds=N   presigned URLs are checked N seconds later than now (time passing
                                between the laptop signing and the machine using the URL)
  POST expire-token             the session token is expired from now on
  POST fail-part?number=N       every UploadPart of part N answers 500 InternalError (0: none)
  POST cut-after?bytes=N        the next GetObject sends N bytes of its body and drops the connection
  POST ranges?on=0|1            whether GetObject honours Range (a server that ignores it answers 200, whole)
  GET  uploads                  {"open": n}: multipart uploads neither completed nor aborted
  GET  log                      one JSON line per request: method, path, query (signature fields left out), auth ("header",
                                "presigned", "none"), status (null while answering), its Range header, and whether the query
                                or headers held a secret (the secret key never should)

Usage: s3emulator.py --access-key AK --secret-key SK [--session-token T] [--region R]
                     [--bucket NAME]... [--object BUCKET/KEY=TEXT]... [--many BUCKET/PREFIX:COUNT]...
Prints "PORT <n>" on stdout once listening on 127.0.0.1 (port 0: a free one)."""

import argparse
import base64
import datetime
import hashlib
import hmac
import json
import sys
import threading
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, unquote
from xml.sax.saxutils import escape

from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

UNSIGNED = "UNSIGNED-PAYLOAD"


class S3Error(Exception):
    def __init__(self, status, code, message, **extra):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


class State:
    def __init__(self, args):
        self.access, self.secret, self.token = args.access_key, args.secret_key, args.session_token
        self.region = args.region
        self.buckets = {name: {} for name in args.bucket}
        self.presign_skew = 0
        self.token_expired = False
        self.log = []
        self.lock = threading.Lock()
        self.uploads = {}  # multipart uploads in progress: id -> {bucket, key, meta, parts}
        self.next_upload = 1
        self.min_part = args.min_part_size
        self.fail_part = 0  # an UploadPart of this number answers 500 (tests of the abort)
        self.cut_after = 0  # the next GetObject drops its connection after this many bytes
        self.ranges = True  # GetObject honours Range
        for spec in args.object:
            where, _, text = spec.rpartition("=")  # keys may hold "=", texts do not
            bucket, _, key = where.partition("/")
            self.put(bucket, key, text.encode(), {})
        for spec in args.many:
            where, _, count = spec.rpartition(":")
            bucket, _, prefix = where.partition("/")
            for i in range(int(count)):
                self.put(bucket, "%s%05d.txt" % (prefix, i), b"%d\n" % i, {})

    def put(self, bucket, key, body, meta, etag=None):
        self.buckets[bucket][key] = {"body": body, "etag": etag or hashlib.md5(body).hexdigest(), "meta": meta,
                                     "modified": datetime.datetime.now(datetime.timezone.utc)}


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def parse_amz_date(text):
    try:
        return datetime.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    except (TypeError, ValueError):
        raise S3Error(403, "AccessDenied", "X-Amz-Date is missing or malformed")


def expected_signature(state, signer_class, method, path, params, signed, headers, timestamp, region, **kw):
    """botocore's signature of the request as received: the signed headers, the decoded query
    (without X-Amz-Signature) and the path re-encoded as S3 does."""
    request_headers = {name: headers.get(name, "") for name in signed}
    request = AWSRequest(method=method, url="http://" + headers.get("host", "") + quote(unquote(path), safe="/~"),
                         headers=request_headers)
    request.params = params
    request.context["timestamp"] = timestamp
    credentials = Credentials(state.access, state.secret, None)
    signer = signer_class(credentials, "s3", region, **kw)
    canonical = signer.canonical_request(request)
    return signer.signature(signer.string_to_sign(request, canonical), request)


def scope_of(credential):
    parts = credential.split("/")
    if len(parts) != 5 or parts[3] != "s3" or parts[4] != "aws4_request":
        raise S3Error(400, "AuthorizationHeaderMalformed", "The credential scope is malformed")
    return parts


def check_scope(state, parts):
    if parts[0] != state.access:
        raise S3Error(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
    if parts[2] != state.region:
        raise S3Error(400, "AuthorizationHeaderMalformed",
                      "the region '%s' is wrong; expecting '%s'" % (parts[2], state.region), Region=state.region)


def check_token(state, token):
    if state.token is None:
        return
    if token != state.token:
        raise S3Error(403, "InvalidToken", "The provided token is malformed or otherwise invalid.")
    if state.token_expired:
        raise S3Error(400, "ExpiredToken", "The provided token has expired.")


def verify_header_auth(state, method, path, query, headers, body):
    authorization = headers.get("authorization", "")
    if not authorization.startswith("AWS4-HMAC-SHA256 "):
        raise S3Error(403, "AccessDenied", "Anonymous access is forbidden for this operation")
    fields = dict(part.strip().split("=", 1) for part in authorization[len("AWS4-HMAC-SHA256 "):].split(","))
    parts = scope_of(fields.get("Credential", ""))
    check_scope(state, parts)
    timestamp = headers.get("x-amz-date", "")
    if abs((now() - parse_amz_date(timestamp)).total_seconds()) > 900:
        raise S3Error(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.")
    check_token(state, headers.get("x-amz-security-token"))
    payload = headers.get("x-amz-content-sha256")
    if payload is None:
        raise S3Error(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256")
    signed = fields.get("SignedHeaders", "").split(";")
    if "host" not in signed or "x-amz-content-sha256" not in signed:
        raise S3Error(403, "SignatureDoesNotMatch", "host and x-amz-content-sha256 must be signed")
    expected = expected_signature(state, S3SigV4Auth, method, path, query, signed, headers, timestamp, parts[2])
    if not hmac.compare_digest(expected, fields.get("Signature", "")):
        raise S3Error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")
    if payload != UNSIGNED and payload != hashlib.sha256(body).hexdigest():
        raise S3Error(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.")


def verify_presigned(state, method, path, query, headers):
    values = dict(query)
    if values.get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256":
        raise S3Error(400, "AuthorizationQueryParametersError", "X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"")
    parts = scope_of(values.get("X-Amz-Credential", ""))
    check_scope(state, parts)
    timestamp = values.get("X-Amz-Date", "")
    signed_at = parse_amz_date(timestamp)
    try:
        expires = int(values.get("X-Amz-Expires", ""))
    except ValueError:
        raise S3Error(400, "AuthorizationQueryParametersError", "X-Amz-Expires should be a number")
    if expires < 1 or expires > 604800:
        raise S3Error(400, "AuthorizationQueryParametersError", "X-Amz-Expires must be less than a week (in seconds)")
    if (now() + datetime.timedelta(seconds=state.presign_skew) - signed_at).total_seconds() > expires:
        raise S3Error(403, "AccessDenied", "Request has expired", Expires=str(signed_at), ServerTime=str(now()))
    check_token(state, values.get("X-Amz-Security-Token"))
    signed = values.get("X-Amz-SignedHeaders", "").split(";")
    params = [(k, v) for k, v in query if k != "X-Amz-Signature"]
    expected = expected_signature(state, S3SigV4QueryAuth, method, path, params, signed, headers, timestamp,
                                  parts[2], expires=expires)
    if not hmac.compare_digest(expected, values.get("X-Amz-Signature", "")):
        raise S3Error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")


def list_objects(state, bucket, values):
    objects = state.buckets[bucket]
    prefix, delimiter = values.get("prefix", ""), values.get("delimiter", "")
    max_keys = max(1, min(1000, int(values.get("max-keys", "1000"))))
    start = values.get("continuation-token", "")
    start = base64.urlsafe_b64decode(start.encode()).decode() if start else values.get("start-after", "")
    contents, prefixes, truncated, last = [], [], False, ""
    for key in sorted(objects):
        if not key.startswith(prefix) or (start and key <= start):
            continue
        if len(contents) + len(prefixes) >= max_keys:
            truncated = True
            break
        rest = key[len(prefix):]
        if delimiter and delimiter in rest:
            common = prefix + rest[:rest.index(delimiter) + len(delimiter)]
            if common not in prefixes:
                prefixes.append(common)
            last = key
            continue
        contents.append(key)
        last = key
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
           "<Name>%s</Name><Prefix>%s</Prefix><KeyCount>%d</KeyCount><MaxKeys>%d</MaxKeys><IsTruncated>%s</IsTruncated>"
           % (escape(bucket), escape(prefix), len(contents) + len(prefixes), max_keys, "true" if truncated else "false")]
    if truncated:
        out.append("<NextContinuationToken>%s</NextContinuationToken>" % base64.urlsafe_b64encode(last.encode()).decode())
    for key in contents:
        o = objects[key]
        out.append("<Contents><Key>%s</Key><LastModified>%s</LastModified><ETag>&quot;%s&quot;</ETag><Size>%d</Size>"
                   "<StorageClass>STANDARD</StorageClass></Contents>"
                   % (escape(key), o["modified"].strftime("%Y-%m-%dT%H:%M:%S.000Z"), o["etag"], len(o["body"])))
    for common in prefixes:
        out.append("<CommonPrefixes><Prefix>%s</Prefix></CommonPrefixes>" % escape(common))
    out.append("</ListBucketResult>")
    return "".join(out).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, *args):
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))

    def reply(self, status, body=b"", headers=None, head=False):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)) if not head or status != 200 else (headers or {}).get("X-Length", "0"))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def error_reply(self, error, resource, head):
        extra = "".join("<%s>%s</%s>" % (k, escape(v), k) for k, v in error.extra.items())
        body = ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message>%s<Resource>%s</Resource>'
                "<RequestId>4442587FB7D0A2F9</RequestId></Error>" % (error.code, escape(error.message), extra, escape(resource))).encode()
        self.reply(error.status, b"" if head else body, {"Content-Type": "application/xml"}, head=False)
        return error.status

    def control(self, path, query):
        values = dict(query)
        if path == "/_emulator/presign-skew":
            self.state.presign_skew = int(values.get("seconds", "0"))
        elif path == "/_emulator/expire-token":
            self.state.token_expired = True
        elif path == "/_emulator/fail-part":
            self.state.fail_part = int(values.get("number", "0"))
        elif path == "/_emulator/ranges":
            self.state.ranges = values.get("on", "1") == "1"
        elif path == "/_emulator/cut-after":
            self.state.cut_after = int(values.get("bytes", "0"))
        elif path == "/_emulator/uploads":
            with self.state.lock:
                body = json.dumps({"open": len(self.state.uploads)}).encode()
            return self.reply(200, body, {"Content-Type": "application/json"})
        elif path == "/_emulator/log":
            with self.state.lock:
                body = "".join(json.dumps(entry) + "\n" for entry in self.state.log).encode()
            return self.reply(200, body, {"Content-Type": "application/x-ndjson"})
        self.reply(204)

    def handle_any(self, method):
        raw_path, _, raw_query = self.path.partition("?")
        query = parse_qsl(raw_query, keep_blank_values=True)
        if raw_path.startswith("/_emulator/"):
            return self.control(raw_path, query)
        body = self.read_body() if method in ("PUT", "POST") else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        presigned = any(k == "X-Amz-Signature" for k, _ in query)
        auth = "presigned" if presigned else ("header" if "authorization" in headers else "none")
        leaked = self.state.secret in self.path or any(self.state.secret in v for v in headers.values())
        # Logged in the order requests arrive, before the reply: a client's next request (on another
        # connection and thread) must not be logged ahead of this one. The status is filled in after.
        entry = {"method": method, "path": unquote(raw_path), "query": {k: v for k, v in query if not k.startswith("X-Amz-")},
                 "auth": auth, "status": None, "range": headers.get("range", ""), "secret_seen": leaked}
        with self.state.lock:
            self.state.log.append(entry)
        try:
            if presigned:
                verify_presigned(self.state, method, raw_path, query, headers)
            else:
                verify_header_auth(self.state, method, raw_path, query, headers, body)
            status = self.operate(method, raw_path, [(k, v) for k, v in query if not k.startswith("X-Amz-")], headers, body)
        except S3Error as error:
            status = self.error_reply(error, unquote(raw_path), method == "HEAD")
        with self.state.lock:
            entry["status"] = status

    def operate(self, method, raw_path, query, headers, body):
        bucket, _, key = unquote(raw_path).lstrip("/").partition("/")
        if bucket not in self.state.buckets:
            raise S3Error(404, "NoSuchBucket", "The specified bucket does not exist", BucketName=bucket)
        objects = self.state.buckets[bucket]
        if not key:
            if method != "GET" or dict(query).get("list-type") != "2":
                raise S3Error(405, "MethodNotAllowed", "Only ListObjectsV2 is emulated on a bucket")
            self.reply(200, list_objects(self.state, bucket, dict(query)), {"Content-Type": "application/xml"})
            return 200
        values = dict(query)
        if "uploads" in values or "uploadId" in values:
            return self.multipart(method, bucket, key, values, headers, body)
        if method == "PUT":
            return self.put_object(objects, bucket, key, headers, body)
        if method == "DELETE":
            objects.pop(key, None)
            self.reply(204)
            return 204
        if key not in objects:
            raise S3Error(404, "NoSuchKey", "The specified key does not exist.", Key=key)
        o = objects[key]
        reply_headers = {"ETag": '"%s"' % o["etag"], "Last-Modified": formatdate(o["modified"].timestamp(), usegmt=True),
                         "Content-Type": "application/octet-stream", "X-Length": str(len(o["body"]))}
        reply_headers.update({"x-amz-meta-" + k: v for k, v in o["meta"].items()})
        body, status = o["body"], 200
        wanted = headers.get("range", "")
        if method == "GET" and wanted.startswith("bytes=") and self.state.ranges:
            first, _, last = wanted[len("bytes="):].partition("-")
            first, last = int(first), int(last) if last else len(body) - 1
            if first >= len(body):
                raise S3Error(416, "InvalidRange", "The requested range is not satisfiable")
            reply_headers["Content-Range"] = "bytes %d-%d/%d" % (first, min(last, len(body) - 1), len(body))
            body, status = body[first:last + 1], 206
        if method == "GET" and self.state.cut_after > 0:
            return self.cut(body, reply_headers)
        self.reply(status, body, reply_headers, head=method == "HEAD")
        return status

    # Headers for the whole body, part of it, and the connection dropped: a link that failed mid-way.
    def cut(self, body, reply_headers):
        cut, self.state.cut_after = self.state.cut_after, 0
        self.send_response(200 if "Content-Range" not in reply_headers else 206)
        for name, value in reply_headers.items():
            if name != "X-Length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[:cut])
        self.wfile.flush()
        self.close_connection = True
        import socket
        self.connection.shutdown(socket.SHUT_RDWR)
        return 200

    def put_object(self, objects, bucket, key, headers, body):
        md5 = headers.get("content-md5")
        if md5 is not None and md5 != base64.b64encode(hashlib.md5(body).digest()).decode():
            raise S3Error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.")
        meta = {name[len("x-amz-meta-"):]: value for name, value in headers.items() if name.startswith("x-amz-meta-")}
        self.state.put(bucket, key, body, meta)
        self.reply(200, b"", {"ETag": '"%s"' % objects[key]["etag"]})
        return 200

    # CreateMultipartUpload (POST ?uploads), UploadPart (PUT ?partNumber&uploadId), CompleteMultipartUpload
    # (POST ?uploadId, parts in order, every part but the last at least --min-part-size) and
    # AbortMultipartUpload (DELETE ?uploadId). The object appears only when the upload completes.
    def multipart(self, method, bucket, key, values, headers, body):
        state = self.state
        if method == "POST" and "uploads" in values:
            with state.lock:
                upload_id = "upload-%d" % state.next_upload
                state.next_upload += 1
                meta = {n[len("x-amz-meta-"):]: v for n, v in headers.items() if n.startswith("x-amz-meta-")}
                state.uploads[upload_id] = {"bucket": bucket, "key": key, "meta": meta, "parts": {}}
            self.reply(200, ("<InitiateMultipartUploadResult><Bucket>%s</Bucket><Key>%s</Key><UploadId>%s</UploadId>"
                             "</InitiateMultipartUploadResult>" % (escape(bucket), escape(key), upload_id)).encode(),
                       {"Content-Type": "application/xml"})
            return 200
        upload = state.uploads.get(values.get("uploadId", ""))
        if upload is None or upload["bucket"] != bucket or upload["key"] != key:
            raise S3Error(404, "NoSuchUpload", "The specified upload does not exist.")
        if method == "GET":
            with state.lock:
                parts = sorted(upload["parts"].items())
            listed = "".join("<Part><PartNumber>%d</PartNumber><ETag>&quot;%s&quot;</ETag><Size>%d</Size></Part>"
                             % (n, hashlib.md5(b).hexdigest(), len(b)) for n, b in parts)
            self.reply(200, ("<ListPartsResult><Bucket>%s</Bucket><Key>%s</Key><UploadId>%s</UploadId>%s"
                             "<IsTruncated>false</IsTruncated></ListPartsResult>"
                             % (escape(bucket), escape(key), values["uploadId"], listed)).encode(), {"Content-Type": "application/xml"})
            return 200
        if method == "PUT":
            number = int(values.get("partNumber", "0"))
            if number == state.fail_part:
                raise S3Error(500, "InternalError", "We encountered an internal error. Please try again.")
            md5 = headers.get("content-md5")
            if md5 is not None and md5 != base64.b64encode(hashlib.md5(body).digest()).decode():
                raise S3Error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.")
            with state.lock:
                upload["parts"][number] = body
            self.reply(200, b"", {"ETag": '"%s"' % hashlib.md5(body).hexdigest()})
            return 200
        if method == "DELETE":
            with state.lock:
                state.uploads.pop(values["uploadId"], None)
            self.reply(204)
            return 204
        return self.complete(upload, values["uploadId"], body)

    def complete(self, upload, upload_id, body):
        import xml.etree.ElementTree as ET
        listed = [(int(p.findtext("PartNumber")), p.findtext("ETag").strip('"')) for p in ET.fromstring(body).iter("Part")]
        if not listed or [n for n, _ in listed] != sorted({n for n, _ in listed}):
            raise S3Error(400, "InvalidPartOrder", "The list of parts was not in ascending order.")
        for i, (number, etag) in enumerate(listed):
            part = upload["parts"].get(number)
            if part is None or hashlib.md5(part).hexdigest() != etag:
                raise S3Error(400, "InvalidPart", "One or more of the specified parts could not be found.")
            if i < len(listed) - 1 and len(part) < self.state.min_part:
                raise S3Error(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed object size.")
        data = b"".join(upload["parts"][n] for n, _ in listed)
        digest = hashlib.md5(b"".join(hashlib.md5(upload["parts"][n]).digest() for n, _ in listed)).hexdigest()
        etag = "%s-%d" % (digest, len(listed))
        with self.state.lock:
            self.state.put(upload["bucket"], upload["key"], data, upload["meta"], etag)
            self.state.uploads.pop(upload_id, None)
        self.reply(200, ("<CompleteMultipartUploadResult><Key>%s</Key><ETag>&quot;%s&quot;</ETag></CompleteMultipartUploadResult>"
                         % (escape(upload["key"]), etag)).encode(), {"Content-Type": "application/xml"})
        return 200

    def do_GET(self):
        self.handle_any("GET")

    def do_HEAD(self):
        self.handle_any("HEAD")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def do_POST(self):
        raw_path, _, raw_query = self.path.partition("?")
        if raw_path.startswith("/_emulator/"):
            return self.control(raw_path, parse_qsl(raw_query))
        self.handle_any("POST")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-key", required=True)
    parser.add_argument("--secret-key", required=True)
    parser.add_argument("--session-token")
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--min-part-size", type=int, default=5 * 1024 * 1024)
    parser.add_argument("--bucket", action="append", default=[])
    parser.add_argument("--object", action="append", default=[])
    parser.add_argument("--many", action="append", default=[], help="BUCKET/PREFIX:COUNT small objects")
    args = parser.parse_args()
    Handler.state = State(args)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
