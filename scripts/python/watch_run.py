"""Follows an agent run's Workflow Stream from Python: its events and its model text, one JSON line per item.

    python scripts/python/watch_run.py <workflow id> [--from OFFSET] [--address 127.0.0.1:7233] [--namespace default]

With HITL_ENCRYPTION_KEYS set as the workers have it, it reads an encrypting deployment's runs (hitl_codec.py).

The run is a TypeScript workflow (@temporalio/workflow-streams); this reads it with temporalio.contrib.workflow_streams,
the same protocol in Python: items are long-polled by update while the run is open. Five things are done here rather
than by the library. A poll cannot reach a closed run, so what was published after the last poll is read with the
run's `runStreamItems` query, as the TypeScript client does. And the library tells a closed run (or one that continued
as new) by describing it, which temporalio 1.34 cannot do for these runs once their `HitlNextDeadline` search
attribute has been cleared (it parses the cleared Datetime as a date and fails): so when the subscription ends, or a
poll finds no open run, the run's status is read from the raw description instead, and the subscription goes on if
the run (a new one, after continue-as-new) is still open. Third, a run that continued as new holds only the newest
part of the stream: what it no longer holds is read first, by query, from the runs before it, as the TypeScript
client does. Fourth, while a poll waits the run is described every 5 s, and its close ends the subscription even if
the poll is never answered (a server that evicted the run from its cache can lose it), as the TypeScript client does.
Fifth, a poll waiting when the run is canceled fails with the run's cancellation, which the library raises: here it
means the run is closing, and its rest is read as any closed run's is.
"""

import argparse
import asyncio
import base64
import json
import os
import sys

from temporalio.api.common.v1 import Payload, WorkflowExecution
from temporalio.api.enums.v1 import WorkflowExecutionStatus
from temporalio.api.workflowservice.v1 import DescribeWorkflowExecutionRequest, GetWorkflowExecutionHistoryRequest
from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.contrib.workflow_streams import WorkflowStreamClient
from temporalio.converter import DataConverter
from temporalio.exceptions import CancelledError
from temporalio.service import RPCError, RPCStatusCode

from hitl_codec import KeysError, data_converter_from_env


def emit(offset: int, topic: str, data: object) -> None:
    # The shape `hitl --json watch` prints: the item's value under `event` or `token`, by its topic.
    key = "token" if topic == "tokens" else "event"
    print(json.dumps({"offset": offset, "topic": topic, key: data}), flush=True)


async def is_open(client: Client, workflow_id: str) -> bool:
    description = await client.workflow_service.describe_workflow_execution(
        DescribeWorkflowExecutionRequest(namespace=client.namespace, execution=WorkflowExecution(workflow_id=workflow_id))
    )
    return description.workflow_execution_info.status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING


async def read_items(client: Client, workflow_id: str, run_id: str | None, from_offset: int) -> dict:
    handle = client.get_workflow_handle(workflow_id, run_id=run_id)
    return await handle.query("runStreamItems", {"topics": [], "from_offset": from_offset})


async def previous_run_id(client: Client, workflow_id: str, run_id: str) -> str | None:
    """The run `run_id` continued from, named by its first history event."""
    request = GetWorkflowExecutionHistoryRequest(
        namespace=client.namespace, execution=WorkflowExecution(workflow_id=workflow_id, run_id=run_id), maximum_page_size=1
    )
    events = (await client.workflow_service.get_workflow_execution_history(request)).history.events
    return events[0].workflow_execution_started_event_attributes.continued_execution_run_id if events else None


async def read_earlier_runs(client: Client, workflow_id: str, run_id: str, start: int, end: int, depth: int = 0) -> list:
    """Items in [start, end) that the runs before `run_id` still hold, in offset order; what none holds is skipped."""
    if start >= end or depth >= 50:
        return []
    items: list = []
    offset = start
    try:
        previous = await previous_run_id(client, workflow_id, run_id)
        if not previous:
            return []
        more = True
        while more and offset < end:
            result = await read_items(client, workflow_id, previous, offset)
            items += [item for item in result["items"] if item["offset"] < end]
            more, offset = result["more_ready"], result["next_offset"]
    except RPCError:
        return []
    held = items[0]["offset"] if items else min(offset, end)
    earlier = await read_earlier_runs(client, workflow_id, previous, start, held, depth + 1) if held > start else []
    return earlier + items


def emit_wire(items: list) -> None:
    converter = DataConverter.default.payload_converter
    for item in items:
        payload = Payload.FromString(base64.b64decode(item["data"]))
        emit(item["offset"], item["topic"], converter.from_payload(payload))


CLOSED_CHECK_SECONDS = 5.0


async def until_closed(client: Client, workflow_id: str, every: float) -> None:
    """Returns once the run has closed, described every `every` seconds (a description that fails is asked again)."""
    while True:
        try:
            if not await is_open(client, workflow_id):
                return
        except RPCError:
            pass
        await asyncio.sleep(every)


async def follow_open(client: Client, workflow_id: str, offset: int, closed_check_seconds: float) -> int:
    """Emits items while the run is open (across continue-as-new); returns the offset after the last.

    A poll need not be answered once its run has closed: the server keeps a waiting update in its cache of the run,
    and when that entry is evicted and the run then completes, nothing fails the update, and the library would wait
    for its outcome forever. So the run's close is watched too, and ends the subscription.
    """
    position = offset
    stopping = False

    async def follow() -> None:
        nonlocal position
        while not stopping:
            try:
                async for item in WorkflowStreamClient.create(client, workflow_id).subscribe(from_offset=position):
                    emit(item.offset, item.topic, item.data)
                    position = item.offset + 1
            except RPCError as err:
                if err.status != RPCStatusCode.NOT_FOUND:
                    raise
            except WorkflowUpdateFailedError as err:
                # A poll waiting when the run is canceled fails with the run's cancellation; the run closes right after.
                if not isinstance(err.cause, CancelledError):
                    raise
                await asyncio.sleep(0.1)
            if stopping or not await is_open(client, workflow_id):
                return

    following = asyncio.create_task(follow())
    closing = asyncio.create_task(until_closed(client, workflow_id, closed_check_seconds))
    try:
        await asyncio.wait({following, closing}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping = True
        closing.cancel()
        following.cancel()
        # The library ends its subscription quietly when cancelled, so `follow` may return rather than raise.
        for task in (closing, following):
            try:
                await task
            except asyncio.CancelledError:
                pass
    return position


async def watch(client: Client, workflow_id: str, from_offset: int, closed_check_seconds: float = CLOSED_CHECK_SECONDS) -> None:
    """Emits the run's items from `from_offset` to its end."""
    offset = from_offset
    # What the current run no longer holds (it continued as new, or dropped it) comes from the runs before it.
    description = await client.workflow_service.describe_workflow_execution(
        DescribeWorkflowExecutionRequest(namespace=client.namespace, execution=WorkflowExecution(workflow_id=workflow_id))
    )
    current = description.workflow_execution_info.execution.run_id
    first = await read_items(client, workflow_id, current, offset)
    held = first["items"][0]["offset"] if first["items"] else first["next_offset"]
    if held > offset:
        emit_wire(await read_earlier_runs(client, workflow_id, current, offset, held))
        offset = held
    offset = await follow_open(client, workflow_id, offset, closed_check_seconds)

    # The run has closed: the rest, by query.
    while True:
        result = await read_items(client, workflow_id, None, offset)
        emit_wire(result["items"])
        offset = result["next_offset"]
        if not result["more_ready"]:
            break


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workflow_id")
    parser.add_argument("--from", dest="from_offset", type=int, default=0)
    parser.add_argument("--address", default="127.0.0.1:7233")
    parser.add_argument("--namespace", default="default")
    args = parser.parse_args()
    client = await Client.connect(args.address, namespace=args.namespace, data_converter=data_converter_from_env())
    try:
        await watch(client, args.workflow_id, args.from_offset)
    except RPCError as err:
        if err.status != RPCStatusCode.NOT_FOUND:
            raise
        fail(4, f"no run {args.workflow_id}: {err.message}")


def fail(code: int, message: str) -> None:
    """Ends with `hitl`'s exit codes (2 a setting or option, 4 no such run), and its words, not a traceback."""
    print(f"Error: {message}", file=sys.stderr, flush=True)
    os._exit(code)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except KeysError as err:
        fail(2, str(err))
    except Exception as err:  # noqa: BLE001 - the message says it; a traceback would not help the reader
        hint = (
            "\nThe run's payloads are encrypted: set HITL_ENCRYPTION_KEYS to the workers' keys (README, \"Encryption\")."
            if "binary/encrypted" in str(err)
            else ""
        )
        fail(1, f"{err}{hint}")
    # The SDK's runtime threads can crash the interpreter's own shutdown (a signal, with nothing on stderr), which
    # would end a complete subscription with no exit code; everything is printed and flushed by now.
    sys.stdout.flush()
    os._exit(0)
