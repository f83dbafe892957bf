"""scripts/python/watch_run.py's `watch`, through a client that never hears a stream poll's answer: each poll reaches
the run, but an interceptor keeps its outcome from the caller, as when the server has lost the poll. The watch must
still end with the run and print every item (one JSON line each), read by query once the run has closed.

    lost_poll_watch.py WORKFLOW_ID --address HOST:PORT --namespace NS
"""

import argparse
import asyncio
import os
import sys
from typing import Any

from temporalio.client import Client, Interceptor, OutboundInterceptor, StartWorkflowUpdateInput

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "python"))
import watch_run  # noqa: E402


class Unanswered:
    """An accepted poll whose outcome never comes."""

    def __init__(self, handle: Any) -> None:
        self.workflow_run_id = handle.workflow_run_id

    async def result(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()


class DropPollAnswers(OutboundInterceptor):
    async def start_workflow_update(self, input: StartWorkflowUpdateInput) -> Any:
        handle = await super().start_workflow_update(input)
        return Unanswered(handle) if input.update == "__temporal_workflow_stream_poll" else handle


class DropPolls(Interceptor):
    def intercept_client(self, next: OutboundInterceptor) -> OutboundInterceptor:
        return DropPollAnswers(next)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workflow_id")
    parser.add_argument("--address", required=True)
    parser.add_argument("--namespace", required=True)
    args = parser.parse_args()
    client = await Client.connect(args.address, namespace=args.namespace, interceptors=[DropPolls()])
    await watch_run.watch(client, args.workflow_id, 0, closed_check_seconds=0.5)


if __name__ == "__main__":
    asyncio.run(main())
    # As in watch_run.py: the SDK's runtime threads can crash the interpreter's own shutdown.
    sys.stdout.flush()
    os._exit(0)
