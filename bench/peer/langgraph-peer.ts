/**
 * The LangGraph.js peer in its own process (so its RSS is its own), driven by the runner over IPC. Env:
 * BENCH_PEER = {"modelBaseURL": "...", "checkpointFile": "..."}.
 */
import { HumanMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import pLimit from 'p-limit';
import { PROMPTS } from '../bench-agent.js';
import { exitWithParent, markNow, rssOf, serveParent } from '../ipc.js';
import { buildPeerGraph, type PeerDecision, type PeerMark } from './graph.js';

exitWithParent();
const config = JSON.parse(process.env.BENCH_PEER ?? '') as { modelBaseURL: string; checkpointFile: string };
const marks = new Map<string, PeerMark[]>();
const { graph, checkpointer } = buildPeerGraph({ ...config, marks });

const cfg = (threadId: string) => ({ configurable: { thread_id: threadId } });

/** Starts a thread and runs it until it pauses on the approval. */
async function pause(threadId: string): Promise<void> {
  await graph.invoke({ messages: [new HumanMessage(PROMPTS.gated)] }, cfg(threadId));
  const state = await graph.getState(cfg(threadId));
  if (!state.tasks.some((t) => t.interrupts.length > 0)) throw new Error(`thread ${threadId} did not pause on the approval`);
}

export interface PeerSample {
  sent: number;
  returned: number;
  toolStart: number;
  toolEnd: number;
  nextModelStart: number;
}

async function resume(
  threadId: string,
  decision: PeerDecision = { type: 'approve' },
): Promise<{ sent: number; returned: number; completed: boolean }> {
  const sent = markNow();
  const result = await graph.invoke(new Command({ resume: decision }), cfg(threadId));
  const returned = markNow();
  const last = result.messages.at(-1);
  return { sent, returned, completed: last?.content === 'done' };
}

const limited = (concurrency: number) => pLimit(Math.max(1, concurrency));

serveParent(
  {
    /** Pauses `threadIds` (with bounded concurrency); returns the elapsed time. */
    pause: async (req) => {
      const ids = req.threadIds as string[];
      const limit = limited(req.concurrency as number);
      const started = Date.now();
      await Promise.all(ids.map((id) => limit(() => pause(id))));
      return { ms: Date.now() - started };
    },
    /** Resumes one paused thread with an approval: the timestamps of the decision's path. */
    sample: async (req) => {
      const id = req.threadId as string;
      marks.delete(id);
      const { sent, returned, completed } = await resume(id);
      if (!completed) throw new Error(`thread ${id} did not complete after the approval`);
      const list = marks.get(id) ?? [];
      marks.delete(id);
      const toolStart = list.find((m) => m.what === 'tool' && m.phase === 'start')?.at;
      const toolEnd = list.find((m) => m.what === 'tool' && m.phase === 'end')?.at;
      const nextModelStart = list.find((m) => m.what === 'model' && m.phase === 'start')?.at;
      if (toolStart === undefined || toolEnd === undefined || nextModelStart === undefined) throw new Error(`thread ${id}: missing marks`);
      return { sent, returned, toolStart, toolEnd, nextModelStart } satisfies PeerSample;
    },
    /** Resumes every thread (approve), `concurrency` at a time; how many completed and how long it took. */
    drain: async (req) => {
      const ids = req.threadIds as string[];
      const limit = limited(req.concurrency as number);
      const started = Date.now();
      const errors: string[] = [];
      const outcomes = await Promise.all(
        ids.map((id) =>
          limit(() =>
            resume(id).then(
              (r) => r.completed,
              (err: unknown) => {
                errors.push(String(err));
                return false;
              },
            ),
          ),
        ),
      );
      marks.clear();
      // The first few reasons, so a shortfall says why.
      return { ms: Date.now() - started, completed: outcomes.filter(Boolean).length, errors: errors.slice(0, 3) };
    },
    memory: () => {
      marks.clear();
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      return { rss: rssOf(process.pid), heapUsed: usage.heapUsed, external: usage.external, arrayBuffers: usage.arrayBuffers };
    },
  },
  async () => {
    checkpointer.db.close();
  },
);
