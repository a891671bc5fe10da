// SPDX-License-Identifier: Apache-2.0
#pragma once

// The start of a fake SFTP v3 server in python, for tests whose sshd runs it as its sftp
// subsystem (SshdFixture::Options::sftpServer): the framing on stdin and stdout and the reply
// helpers. A test appends its own request loop and writes the whole as an executable script.
namespace gantry::test {

inline constexpr char kFakeSftpPrelude[] = R"py(#!/usr/bin/python3 -S
import os, struct, sys
rd, wr = sys.stdin.buffer, sys.stdout.buffer

def u32(v): return struct.pack('>I', v)
def string(b): return u32(len(b)) + b
def attrs(perm, size): return u32(0x1 | 0x4 | 0x8) + struct.pack('>Q', size) + u32(perm) + u32(0) + u32(0)
def send(kind, rid, payload=b''):
    body = bytes([kind]) + u32(rid) + payload
    wr.write(u32(len(body)) + body)
    wr.flush()
def status(rid, code, msg=b''): send(101, rid, u32(code) + string(msg) + string(b''))
def exact(n):
    b = b''
    while len(b) < n:
        c = rd.read(n - len(b))
        if not c:
            sys.exit(0)
        b += c
    return b
)py";

} // namespace gantry::test
