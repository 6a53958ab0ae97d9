"""The browser tests' kernel tracker (harness.KERNEL_TRACKER_JS) reads kernel frames in the page.

Every wait on "the kernel has answered" rests on it, so here its reader, run in chromium, must
find in frames made by jupyter_server's own codecs (the server's side of the socket) the same
facts those codecs read back: channel, message id and type, parent id, execution state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from jupyter_client.jsonutil import json_default
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
    serialize_binary_message,
    serialize_msg_to_ws_v1,
)

V1 = "v1.kernel.websocket.jupyter.org"
READ_JS = """([protocol, kind, payload]) => {
  const data = kind === 'text' ? payload : new Uint8Array(payload).buffer;
  return window.__skReadKernelFrame(protocol, data);
}"""


@pytest.fixture
def tracked_page(watched_page: tuple[Any, Any]) -> Any:
    page, _ = watched_page
    page.set_content("<p>tracker</p>")
    page.wait_for_function("() => typeof window.__skReadKernelFrame === 'function'")
    return page


def messages() -> list[tuple[str, dict[str, Any]]]:
    session = Session(key=b"secret")
    request = session.msg("comm_msg", content={"comm_id": "c1", "data": {"method": "custom"}})
    return [
        ("shell", request),
        ("iopub", session.msg("status", content={"execution_state": "busy"}, parent=request)),
        ("iopub", session.msg("comm_msg", content={"data": {"method": "update", "state": {"value": "é ♥"}}})),
        ("iopub", session.msg("status", content={"execution_state": "idle"}, parent=request)),
        ("shell", session.msg("kernel_info_request")),
    ]


def expected(channel: str, msg: dict[str, Any]) -> dict[str, Any]:
    facts = {
        "channel": channel,
        "msg_id": msg["header"]["msg_id"],
        "msg_type": msg["header"]["msg_type"],
        "parent_msg_id": (msg["parent_header"] or {}).get("msg_id"),
    }
    if facts["msg_type"] == "status":
        facts["execution_state"] = msg["content"]["execution_state"]
    return facts


def test_v1_binary_frames_read_as_jupyter_server_reads_them(tracked_page: Any) -> None:
    session = Session(key=b"secret")
    for channel, msg in messages():
        parts = session.serialize(msg)[2:]  # header, parent, metadata, content (no delimiter or signature)
        frame = serialize_msg_to_ws_v1(parts, channel)
        got_channel, got_parts = deserialize_msg_from_ws_v1(frame)  # the server's own reading
        assert (got_channel, json.loads(got_parts[0])["msg_id"]) == (channel, msg["header"]["msg_id"])
        assert tracked_page.evaluate(READ_JS, [V1, "binary", list(frame)]) == expected(channel, msg)


def test_legacy_text_and_binary_frames_are_read_too(tracked_page: Any) -> None:
    for channel, msg in messages():
        whole = {**msg, "channel": channel, "buffers": []}
        text = json.dumps(whole, default=json_default)
        assert tracked_page.evaluate(READ_JS, ["", "text", text]) == expected(channel, msg)
        binary = serialize_binary_message({**whole, "buffers": [b"\x00\x01\x02"]})
        assert deserialize_binary_message(binary)["header"]["msg_id"] == msg["header"]["msg_id"]
        assert tracked_page.evaluate(READ_JS, ["", "binary", list(binary)]) == expected(channel, msg)


def test_frames_that_are_no_kernel_message_are_skipped(tracked_page: Any) -> None:
    skipped = tracked_page.evaluate(
        """() => [JSON.stringify({hello: 1}), JSON.stringify({header: {no_id: true}})]
                 .map((text) => window.__skReadKernelFrame('', text))"""
    )
    assert skipped == [None, None]
