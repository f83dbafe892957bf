"""Follows an agent run's Workflow Stream from Python: its events and its model text, one JSON line per item.

    python scripts/python/watch_run.py <workflow id> [--from OFFSET] [--address 127.0.0.1:7233] [--namespace default]

The run is a TypeScript workflow (@temporalio/workflow-streams); this reads it with temporalio.contrib.workflow_streams,
the same protocol in Python: items are long-polled by update while the run is open. Two things are done here rather
than by the library. A poll cannot reach a closed run, so what was published after the last poll is read with the
run's `runStreamItems` query, as the TypeScript client does. And the library tells a closed run (or one that continued
as new) by describing it, which temporalio 1.34 cannot do for these runs once their `HitlNextDeadline` search
attribute has been cleared (it parses the cleared Datetime as a date and fails): so when the subscription ends, or a
poll finds no open run, the run's status is read from the raw description instead, and the subscription goes on if
the run (a new one, after continue-as-new) is still open.
"""

import argparse
import asyncio
import base64
import json
import sys

from temporalio.api.common.v1 import Payload, WorkflowExecution
from temporalio.api.enums.v1 import WorkflowExecutionStatus
from temporalio.api.workflowservice.v1 import DescribeWorkflowExecutionRequest
from temporalio.client import Client
from temporalio.contrib.workflow_streams import WorkflowStreamClient
from temporalio.converter import DataConverter
from temporalio.service import RPCError, RPCStatusCode


def emit(offset: int, topic: str, data: object) -> None:
    print(json.dumps({"offset": offset, "topic": topic, "data": data}), flush=True)


async def is_open(client: Client, workflow_id: str) -> bool:
    description = await client.workflow_service.describe_workflow_execution(
        DescribeWorkflowExecutionRequest(namespace=client.namespace, execution=WorkflowExecution(workflow_id=workflow_id))
    )
    return description.workflow_execution_info.status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workflow_id")
    parser.add_argument("--from", dest="from_offset", type=int, default=0)
    parser.add_argument("--address", default="127.0.0.1:7233")
    parser.add_argument("--namespace", default="default")
    args = parser.parse_args()

    client = await Client.connect(args.address, namespace=args.namespace)
    offset = args.from_offset
    while True:
        try:
            async for item in WorkflowStreamClient.create(client, args.workflow_id).subscribe(from_offset=offset):
                emit(item.offset, item.topic, item.data)
                offset = item.offset + 1
        except RPCError as err:
            if err.status != RPCStatusCode.NOT_FOUND:
                raise
        if not await is_open(client, args.workflow_id):
            break

    # The run has closed: the rest, by query.
    converter = DataConverter.default.payload_converter
    handle = client.get_workflow_handle(args.workflow_id)
    while True:
        result = await handle.query("runStreamItems", {"topics": [], "from_offset": offset})
        for item in result["items"]:
            payload = Payload.FromString(base64.b64decode(item["data"]))
            emit(item["offset"], item["topic"], converter.from_payload(payload))
        offset = result["next_offset"]
        if not result["more_ready"]:
            break


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
