"""A Temporal client in Python, as a LangChain or LangGraph application would drive a paused run: it reads what
waits with a query and resumes with its own payload, by the `decide` update or the `decision` signal.

    seed_client.py --address HOST:PORT --namespace NS

Connects once, then answers requests read from stdin, one JSON line each:
{"workflowId", "command": "query" | "update" | "signal", "argument"} (a query's name, or the payload sent). Writes
one JSON line per request: {"ok": true, "result": ...}, or {"ok": false, "type", "message", "code"} when the run
refused an update (or anything else failed).
"""

import argparse
import asyncio
import json
import os
import sys

from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.exceptions import ApplicationError


async def answer(client: Client, request: dict) -> dict:
    handle = client.get_workflow_handle(request["workflowId"])
    command, argument = request["command"], request["argument"]
    if command == "query":
        return {"ok": True, "result": await handle.query(argument)}
    if command == "signal":
        await handle.signal("decision", argument)
        return {"ok": True}
    try:
        return {"ok": True, "result": await handle.execute_update("decide", argument)}
    except WorkflowUpdateFailedError as err:
        cause = err.cause
        if not isinstance(cause, ApplicationError):
            raise
        details = list(cause.details)
        code = details[0].get("code") if details and isinstance(details[0], dict) else None
        return {"ok": False, "type": cause.type, "message": cause.message, "code": code}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--namespace", required=True)
    args = parser.parse_args()
    client = await Client.connect(args.address, namespace=args.namespace)
    print(json.dumps({"ok": True, "result": "connected"}), flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        try:
            reply = await answer(client, json.loads(line))
        except Exception as err:  # the test reads every failure as an answer
            reply = {"ok": False, "type": type(err).__name__, "message": str(err)}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
    # The SDK's runtime threads can crash the interpreter's own shutdown; everything is written by now.
    os._exit(0)
