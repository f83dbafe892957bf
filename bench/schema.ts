/** The shape of bench/results.json. `test/bench.test.ts` validates the quick run's output against it. */
import { z } from 'zod';

const ms = z.number();
const bytes = z.number().int().nonnegative();
const positiveRatio = z.number().positive();

export const LatencyStats = z.strictObject({
  n: z.number().int().positive(),
  p50: ms,
  p90: ms,
  p99: ms,
  mean: ms,
  min: ms,
  max: ms,
});

/** Decision sent → tool starts, cut at the workflow task that applied the decision (bench/scenarios/decision-task.ts). */
export const DecisionTask = z.strictObject({
  /** Decision sent → the server scheduled the workflow task that applies it. */
  sentToTaskScheduled: LatencyStats,
  /** That task started → completed, as the server recorded them: the worker's activation and the round trip to it. */
  taskStartedToCompleted: LatencyStats,
  /** The task completed → the approved tool's activity started on the worker: the server's handling of the completion. */
  taskCompletedToToolStart: LatencyStats,
  /** The events the task wrote, up to the tool's ActivityTaskScheduled (the first sample's). */
  taskEvents: z.array(z.string()),
});

/** One way of delivering a decision, measured over many runs; spans in milliseconds on the machine's clock. */
export const LatencySeries = z.strictObject({
  /** Decision returned to the client (update result / signal accepted) → the next model call (activity) starts. */
  decisionToNextCall: LatencyStats.optional(),
  /** Decision sent → the approved tool starts. */
  sentToToolStart: LatencyStats,
  /** Decision sent → the approved tool has completed. */
  sentToToolEnd: LatencyStats,
  /** Decision sent → the next model call starts. */
  sentToNextCall: LatencyStats,
  /** Decision sent → the client has its answer (update / signal round trip). */
  sentToReturned: LatencyStats.optional(),
  /** Decision returned → the scripted model server received the next request (includes the openai client and HTTP). */
  returnedToModelRequest: LatencyStats.optional(),
  /** Where decision sent → tool starts goes, for runs decided in one run of their workflow (ours and the floor). */
  decisionTask: DecisionTask.optional(),
  /** Decision sent → tool starts, every sample in the order taken (ours and the floor by update: the target's interval). */
  sentToToolStartMs: z.array(z.number().nonnegative()).optional(),
  /**
   * Decision sent → tool starts by the series sampled just before (bench/sample-order.ts: every series follows every
   * series equally often), keyed by that series' name (ours and the floor by update).
   */
  sentToToolStartAfter: z
    .record(z.string(), z.strictObject({ n: z.number().int().nonnegative(), p50: z.number().nonnegative() }))
    .optional(),
});

/** One side of the step-overhead comparison. */
export const StepSide = z.strictObject({
  /** Wall time of a whole run ÷ steps, one value per repetition. */
  perStepMs: LatencyStats,
  /** Time between consecutive steps' starts (model call / first activity), every step of every repetition. */
  stepIntervalMs: LatencyStats,
  /** CPU time per step, which a busy machine's run queue does not inflate. */
  cpuMsPerStep: z.strictObject({ worker: z.number().nonnegative(), server: z.number().nonnegative() }),
});

export const Target = z.strictObject({
  id: z.enum(['decision-latency', 'step-overhead', 'evicted-decision', 'density', 'history-events', 'peer-resume']),
  target: z.string(),
  measured: z.string(),
  /** null: not measurable in this run (e.g. quick mode's smaller density). */
  met: z.boolean().nullable(),
});

export const Experiment = z.strictObject({
  name: z.string(),
  description: z.string(),
  overrides: z.record(z.string(), z.number()),
  metrics: z.record(z.string(), z.number()),
  /** Set when the experiment could not finish; its metrics are then absent. */
  error: z.string().optional(),
});

const SpanStats = z.strictObject({ sentToToolStart: LatencyStats, sentToReturned: LatencyStats, sentToNextCall: LatencyStats });

/** Deciding a run evicted from the worker's cache against a cached one, per history size (bench/scenarios/evicted.ts). */
export const EvictedResults = z.strictObject({
  /** The dev server the scenario ran on: ours plus what it adds (a 5,000-event paused run needs it). */
  serverDynamicConfig: z.record(z.string(), z.number()),
  /** Sizes whose measurement failed, and why. */
  failures: z.array(z.strictObject({ events: z.number().int(), error: z.string() })),
  sizes: z.array(
    z.strictObject({
      /** Cached/evicted pairs decided at this size. */
      samples: z.number().int().positive(),
      events: z.number().int().positive(),
      /** The run continued as new before it waited (the default since `continueAsNew.beforeWaitEvents`): `events` is the continued run's. */
      continued: z.boolean().optional(),
      bytes,
      automaticSteps: z.number().int().nonnegative(),
      paddingSignals: z.number().int().nonnegative(),
      cached: SpanStats,
      evicted: SpanStats,
      ratioP50: positiveRatio,
      ratioP99: positiveRatio,
      replayCostMsP50: z.number(),
    }),
  ),
  /** The bare floor workflow decided the same way (bench/scenarios/evicted-floor.ts); absent from runs before it. */
  floor: z
    .strictObject({
      samples: z.number().int().positive(),
      events: z.number().int().positive(),
      bytes,
      cached: z.strictObject({ sentToToolStart: LatencyStats, sentToReturned: LatencyStats }),
      evicted: z.strictObject({ sentToToolStart: LatencyStats, sentToReturned: LatencyStats }),
      ratioP50: positiveRatio,
      ratioP99: positiveRatio,
      replayCostMsP50: z.number(),
    })
    .optional(),
});

/** What streaming one run's model text adds to its history, against the same run without streaming. */
const StreamingCost = z.strictObject({
  events: z.number().int(),
  bytes,
  /** The model activity's batches (one signal each). */
  publishSignals: z.number().int().nonnegative(),
  /** Subscriber polls the run accepted (an update each). */
  acceptedPolls: z.number().int().nonnegative(),
  addedEventsPer1000Tokens: z.number(),
  addedBytesPer1000Tokens: z.number(),
});

/** bench/scenarios/streaming.ts: a one-step run whose answer is `tokens` chunks, with and without streaming. */
export const StreamingResults = z.strictObject({
  tokens: z.number().int().positive(),
  msPerToken: z.number().nonnegative(),
  batchIntervalMs: z.number().positive(),
  charsPerToken: z.number().int().positive(),
  history: z.strictObject({
    withoutStreaming: z.strictObject({ events: z.number().int(), bytes }),
    streaming: StreamingCost,
    streamingWithOneSubscriber: StreamingCost,
  }),
  /** A token's chunk leaving the model server → a subscriber (HitlClient.subscribe) holding it, per token. */
  tokenToSubscriberMs: LatencyStats,
  /** Batches the subscriber read by query after the run closed (not latency samples). */
  batchesReadAfterClose: z.number().int().nonnegative(),
});

export const BenchResults = z.strictObject({
  schemaVersion: z.literal(1),
  mode: z.enum(['quick', 'full']),
  command: z.string(),
  startedAt: z.iso.datetime(),
  durationSeconds: z.number().positive(),
  machine: z.strictObject({
    cpuModel: z.string(),
    cores: z.number().int().positive(),
    ramBytes: bytes,
    os: z.string(),
    kernel: z.string(),
    node: z.string(),
    temporalCli: z.string(),
    temporalSdk: z.string(),
    /**
     * SDK files changed after npm installed them (bench/installed-sdk.ts): a run measured with any is no result.
     * Absent in runs from before the bench looked.
     */
    temporalSdkChangedFiles: z.array(z.string()).optional(),
    langgraph: z.string(),
    /** Where the server keeps its state for the run: the dev server's file or memory, or a cluster's PostgreSQL. */
    serverStorage: z.enum(['sqlite-file', 'memory', 'postgresql']),
    /** The dev server's dynamic config (src/dev/server-dynamic-config.ts); absent in runs from before it was recorded. */
    serverDynamicConfig: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  }),
  settings: z.strictObject({
    latencySamples: z.number().int().positive(),
    warmupSamples: z.number().int().nonnegative(),
    steps: z.number().int().positive(),
    stepRepetitions: z.number().int().positive(),
    densityRuns: z.number().int().positive(),
    decideConcurrency: z.number().int().positive(),
  }),
  decisionLatency: z.strictObject({
    ours: z.strictObject({ update: LatencySeries, signal: LatencySeries }),
    floor: z.strictObject({ update: LatencySeries, signal: LatencySeries }),
    /** The OpenAI-Agents-pattern peer (signal, RunState, continue-as-new), interleaved with the others. */
    openaiAgents: LatencySeries,
    /** Ours ÷ floor: decision sent → tool starts (the target's span, update against update), then decision returned → next call starts. */
    ratios: z.strictObject({
      toolStartP50: positiveRatio,
      toolStartP99: positiveRatio,
      /** 95% bootstrap intervals of the two ratios above (bench/stats.ts, ratioInterval): how far this run's noise alone moves them. */
      toolStartP50Interval: z.tuple([positiveRatio, positiveRatio]).optional(),
      toolStartP99Interval: z.tuple([positiveRatio, positiveRatio]).optional(),
      updateP50: positiveRatio,
      updateP99: positiveRatio,
      signalP50: positiveRatio,
      signalP99: positiveRatio,
      /** Ours by update ÷ the floor by signal (the brief's literal pairing; see RESULTS.md for why it flatters us). */
      updateVsSignalFloorP50: positiveRatio,
    }),
  }),
  stepOverhead: z.strictObject({
    steps: z.number().int().positive(),
    ours: StepSide,
    floor: StepSide,
    ratioP50: positiveRatio,
    /** Ours ÷ floor, CPU milliseconds per step (worker process + server). */
    cpuRatio: positiveRatio,
  }),
  density: z.strictObject({
    runs: z.number().int().positive(),
    paused: z.number().int().nonnegative(),
    startSeconds: z.number().nonnegative(),
    /** Start of the first run → all runs paused on their approval. */
    pauseSeconds: z.number().nonnegative(),
    worker: z.strictObject({
      baselineRssBytes: bytes,
      pausedRssBytes: bytes,
      /** Sampled every second from the start of the runs to the end of the drain. */
      peakRssBytes: bytes,
      perPausedRunBytes: z.number(),
      /** RSS growth ÷ runs held in the workflow cache. */
      perCachedRunBytes: z.number(),
      cachedWorkflows: z.number().int().nonnegative(),
      maxCachedWorkflows: z.number().int().nonnegative(),
      /** The worker's V8 heap limit, from which the SDK derives its default maxCachedWorkflows. */
      heapLimitBytes: bytes,
      /** createWorker's heapGrowthPercent (V8's --heap-growing-percent; 0: V8's heuristic). Absent in runs before it. */
      heapGrowthPercent: z.number().int().nonnegative().optional(),
      /** Worker processes that died and were replaced during the scenario (0 expected). */
      restarts: z.number().int().nonnegative(),
    }),
    /** CPU milliseconds per run to get it paused, and per decision to get it completed. */
    cpu: z.strictObject({
      workerMsPerPause: z.number(),
      serverMsPerPause: z.number(),
      workerMsPerDecision: z.number(),
      serverMsPerDecision: z.number(),
    }),
    devServer: z.strictObject({ baselineRssBytes: bytes, pausedRssBytes: bytes, peakRssBytes: bytes, dbFileBytes: bytes.optional() }),
    drain: z.strictObject({
      concurrency: z.number().int().positive(),
      /** Decisions accepted per second (update round trips, `concurrency` in flight). */
      decisionsPerSecond: z.number().positive(),
      /** Runs completed per second, first decision sent → last run completed. */
      completionsPerSecond: z.number().nonnegative(),
      seconds: z.number().positive(),
      /** `decide` updates retried (same update id) after the server timed out waiting for the worker. */
      decideRetries: z.number().int().nonnegative(),
    }),
    /**
     * Workflow tasks that rebuilt their run from history first (Core's sticky_cache_miss), per run: while the runs
     * started and paused (each new run's first task is one), and while they were decided and completed (a run the
     * cache let go is rebuilt for its decision, and again for each later task that finds it gone). Absent in runs
     * before it, and when a worker process was replaced.
     */
    rebuilds: z
      .strictObject({
        perPausedRun: z.number().nonnegative(),
        perDecidedRun: z.number().nonnegative(),
        drainTasksPerRun: z.number().nonnegative(),
      })
      .optional(),
    completed: z.number().int().nonnegative(),
    /** completed ÷ runs; must be 1. */
    completion: z.number().min(0).max(1),
  }),
  history: z.strictObject({
    directRun: z.strictObject({ events: z.number().int(), bytes }),
    stepsRun: z.strictObject({ steps: z.number().int(), events: z.number().int(), bytes }),
    /** A whole run with one gated call decided by update; its event types count its Temporal Cloud actions. */
    gatedRunUpdate: z.strictObject({ events: z.number().int(), bytes, eventTypes: z.record(z.string(), z.number()) }),
    gatedRunSignal: z.strictObject({ events: z.number().int(), bytes }),
    perAutomaticStep: z.strictObject({ events: z.number(), bytes: z.number(), eventTypes: z.record(z.string(), z.number()) }),
    perGatedStep: z.strictObject({ events: z.number(), bytes: z.number(), eventTypes: z.record(z.string(), z.number()) }),
    perGatedStepSignal: z.strictObject({ events: z.number(), bytes: z.number() }),
    /** Size of the callModel activity input (the whole transcript) at the first and last step of the steps run. */
    modelInputBytes: z.strictObject({ firstStep: bytes, lastStep: bytes, growthPerStep: z.number() }),
    /** A 1,000-step run without continue-as-new, extrapolated from the steps run (not measured). */
    projected1000Steps: z.strictObject({ events: z.number().int(), bytes }),
    continueAsNew: z.discriminatedUnion('status', [
      z.strictObject({ status: z.literal('not-landed'), message: z.string() }),
      z.strictObject({ status: z.literal('skipped'), message: z.string(), detectedBy: z.string() }),
      z.strictObject({ status: z.literal('failed'), message: z.string(), detectedBy: z.string() }),
      z.strictObject({
        status: z.literal('measured'),
        detectedBy: z.string(),
        steps: z.number().int(),
        /** Runs in the chain (continue-as-new count + 1). */
        runs: z.number().int().positive(),
        seconds: z.number().nonnegative(),
        /** The run with the most bytes of history. */
        largestHistory: z.strictObject({ events: z.number().int(), bytes }),
        /** The most events any run of the chain held. */
        mostEvents: z.number().int(),
        message: z.string(),
      }),
    ]),
  }),
  peer: z.strictObject({
    latency: LatencySeries,
    threads: z.number().int().positive(),
    pauseSeconds: z.number().nonnegative(),
    baselineRssBytes: bytes,
    pausedRssBytes: bytes,
    perPausedThreadBytes: z.number(),
    checkpointFileBytes: bytes,
    drain: z.strictObject({
      concurrency: z.number().int().positive(),
      completionsPerSecond: z.number().positive(),
      seconds: z.number().positive(),
    }),
    completed: z.number().int().nonnegative(),
    /** Ours ÷ peer (above 1: we are slower / heavier). */
    ratios: z.strictObject({
      resumeToToolP50: positiveRatio,
      resumeToToolP99: positiveRatio,
      resumeToNextCallP50: positiveRatio,
      /** null when the peer's RSS did not measurably grow (nothing to divide by). */
      memoryPerPausedRun: z.number().positive().nullable(),
    }),
  }),
  /** The second peer: `@temporalio/openai-agents`' approval pattern on the same server and worker process. */
  openaiAgentsPeer: z.strictObject({
    /** Both runs of one decided chain (paused run + the run it continued as new into). */
    history: z.strictObject({ runs: z.number().int().positive(), events: z.number().int().positive(), bytes }),
    /** Ours (by update) ÷ this peer (by signal). */
    ratios: z.strictObject({ sentToToolStartP50: positiveRatio, sentToToolStartP99: positiveRatio, historyEvents: positiveRatio }),
  }),
  evicted: EvictedResults,
  targets: z.array(Target).length(6),
  experiments: z.array(Experiment),
  /** Absent in results from before the streaming scenario. */
  streaming: StreamingResults.optional(),
});

export type BenchResults = z.infer<typeof BenchResults>;

/**
 * `npm run bench:cluster-density` (bench/cluster-density.ts): the density scenario on a Temporal cluster on
 * PostgreSQL, a run of its own. In `density`, `devServer` holds the Temporal server process's RSS and, as
 * `dbFileBytes`, PostgreSQL's bytes with every run paused; the server's CPU counts PostgreSQL's processes too.
 */
export const ClusterDensityResults = z.strictObject({
  command: z.string(),
  startedAt: z.iso.datetime(),
  durationSeconds: z.number().positive(),
  machine: BenchResults.shape.machine,
  temporalServer: z.string(),
  /** `pg_database_size` of the history and visibility databases. */
  storage: z.strictObject({
    emptyBytes: bytes,
    pausedBytes: bytes,
    drainedBytes: bytes,
    perPausedRunBytes: z.number().int(),
    perCompletedRunBytes: z.number().int(),
  }),
  density: BenchResults.shape.density,
});

export type ClusterDensityResults = z.infer<typeof ClusterDensityResults>;
export type LatencySeries = z.infer<typeof LatencySeries>;
export type DecisionTask = z.infer<typeof DecisionTask>;
export type Experiment = z.infer<typeof Experiment>;
export type Target = z.infer<typeof Target>;
export type StreamingResults = z.infer<typeof StreamingResults>;
