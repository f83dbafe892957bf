/** The patch ids of patch sets 20 and later (patch-ids.ts holds the earlier ones, and PATCHES all of them). */
export const PATCHES_SINCE_SET_20 = {
  /**
   * A step's calls end together: when one fails, or the run is cancelled, the others are cancelled and waited for
   * before the run goes on failing (step-calls.ts). A sub-agent was terminated when its parent closed first.
   */
  stepCallsEndTogether: 'step-calls-end-together',
  /** A sub-agent whose workflow id another running workflow holds is its call's failure, told to the model. */
  subAgentIdTakenIsToolFailure: 'sub-agent-id-taken-is-tool-failure',
  /** Under a quorum, an approval older than the gate's `validFor` no longer counts (quorum-lapse.ts). */
  quorumApprovalsLapse: 'quorum-approvals-lapse',
  /** An `always` decision settles a later call only if its giver may decide that call (run-decisions.ts). */
  standingDecisionsNeedAuthority: 'standing-decisions-need-authority',
  /** One input may not decide a tool both `always approve` and `always reject` (decision-plan.ts). */
  opposedAlwaysRefused: 'opposed-always-refused',
  /** Continue-as-new carries what was decided before refusals (audit-log.ts): it changes what fits in the next run. */
  auditKeepsDecided: 'audit-keeps-decided',
  /**
   * A run writes durations exactly (`90s`, not `ms`'s rounded `2m`): a pending call's `validFor`, and the messages
   * that name a timeout or a validity (run-duration.ts).
   */
  exactDurations: 'exact-durations',
  /** A tool result cut again to its step's share counts what both cuts took (truncate.ts, `recutBytes`). */
  recutCountsAll: 'recut-counts-all',
  /** A quorum approval under `validFor` says when it lapses (`until`), by which views judge it (held-approvals.ts). */
  approvalsSayUntil: 'approvals-say-until',
  /** A run writes when its chain began (`startedAt`) in its memo from its start: a starter's memo may say otherwise. */
  startInMemo: 'start-in-memo',
  /** A continued run says so on its stream (`run_continued`): watchers saw nothing of the new execution before. */
  continuedSaysSo: 'continued-says-so',
  /**
   * A breakpoint's decision lists what the run does next in its own task (run-decisions.ts). It held the listings back
   * as for a tool that starts, but a gated call announced after a breakpoint starts no activity to bring them out:
   * lists showed the decided breakpoint, and not the call, until its deadline.
   */
  breakpointsListAtOnce: 'breakpoints-list-at-once',
  /**
   * A run that checks no decision tokens passes one on with a decision for a sub-agent's call whose run checks them
   * (decision-plan.ts), instead of refusing it: after signing was switched on, a run started before it sent such
   * decisions on unsigned, and a sub-agent started after it refused them, so its calls could not be decided.
   */
  tokensPassToOwners: 'tokens-pass-to-owners',
  /**
   * A decision passed on to a sub-agent is recorded as `forwarded`, not `applied`, and what the sub-agent did with it
   * is noted when it reports (taken, refused with its reason, or never answered): the run's log said "applied" for a
   * decision the sub-agent had refused, and whoever sent it was told nothing else. A sub-agent's report lists its
   * refusals for this (sub-agent-report.ts).
   */
  forwardsHearBack: 'forwards-hear-back',
  /**
   * A sub-agent's call that newly waits is announced on this run's stream (`approval_requested`), as the run's own
   * calls are: a watcher of the top-level run saw the call's decision, never that it waited.
   */
  subAgentCallsAnnounced: 'sub-agent-calls-announced',
  /**
   * A sub-agent's report is taken once the sub-agent confirms it sent it (a query, by a local activity), and a
   * sub-agent keeps the digests of its latest reports to answer. A signal does not say who sent it: a report forged
   * with a high number froze the parent's view of the sub-agent, whose own reports were then ignored as older, and
   * forged answers could have the parent note a refused decision as taken.
   */
  reportsConfirmed: 'sub-agent-reports-confirmed',
  /**
   * A call's arguments holding a `__proto__` key or a number JSON text reads as Infinity are invalid, for the model and
   * for an edit alike (tool-arguments.ts). An MCP tool's schema let both through: the key failed the run when it
   * continued as new (its start input refuses the key, and the call's audit entry carried it), and the number threw
   * from the arguments' hash when a reviewer had gone first, failing every workflow task of the run.
   */
  toolArgumentsPlainJson: 'tool-arguments-plain-json',
  /**
   * A new stream poll, when all the polls a run lets wait are waiting, releases the one that has waited a minute
   * (run-stream.ts, `idlePollMs`): a watcher that went away no longer holds its place until the next event. Every
   * poll then waits in a wait of the run's own, so its answer comes later in the workflow task than before.
   */
  idlePollsReleased: 'idle-polls-released',
  /**
   * Calls are announced under decision rules v6 (src/policy/may-decide.ts): under four eyes, the requester and the
   * writer of a call may not answer for its tool with a response either, since the agent takes it as the tool's
   * result. They may still withdraw it (a reject). Calls announced before keep v5, under which a response was theirs.
   */
  fourEyesAnswers: 'four-eyes-answers',
  /**
   * Webhook events still being delivered when the run closes (or continues as new) are handed to delivery workflows
   * that outlive it (webhook-delivery.ts), started before it closes: their activities, the run's own, never started
   * again once it had closed, and a receiver down at the time lost the run's last events after one attempt.
   */
  webhooksOutliveRun: 'webhooks-outlive-run',
  /**
   * An MCP tool's JSON Schema patterns are run by RE2 when the run checks a model's or an editor's arguments
   * (src/tools/schema-patterns.ts): JavaScript's RegExp backtracks, and a server's `^(a+)+$` against arguments a
   * model chose held the workflow task until the worker process died, then failed the task on every retry.
   */
  schemaPatternsLinear: 'schema-patterns-linear',
  /**
   * Gates fail safe on what cannot be trusted (src/policy/classify-call.ts, `failSafe`): an MCP tool annotated both
   * read-only and destructive waits (it ran unasked), and a `when` that did not hold over arguments holding a hidden
   * character waits (a tester's "Re\u00adfund" subject passed a `matches: refund` gate).
   */
  gatesFailSafe: 'gates-fail-safe',
  /** MCP arguments' checks count the value's work and stop at a part's first problem (json-schema-check.ts, `bounded`). */
  schemaChecksBounded: 'schema-checks-bounded',
  /** A run's own policy may add a reviewer that can only reject or escalate (src/reviewers/reviewer-may-approve.ts). */
  rejectOnlyReviewers: 'reject-only-reviewers',
  /** Decision rules v7 (src/policy/may-decide.ts): four eyes and quorums take `Alice` and `alice` as one person. */
  namesAnyCase: 'names-any-case',
  /** A run's start input nests at most MAX_START_INPUT_DEPTH deep (src/bounds/json-depth.ts): deeper overflowed the stack. */
  startInputDepthBound: 'start-input-depth-bound',
  /** A sub-agent reports to its parent once an activation, for all that changed in it (run-visibility.ts). */
  reportsCoalesced: 'reports-coalesced',
  /** At most MAX_NOTIFICATIONS_IN_FLIGHT webhook events go out at once, the rest in turn (run-notifications.ts says why). */
  notificationsBounded: 'notifications-bounded',
  /** A model call carries only what follows its run's previous call's messages, named by hash (contract/message-chain.ts). */
  messagesByReference: 'messages-by-reference',
  /**
   * A `when` that did not hold is read again over the arguments with full-width letters and other spaces as ASCII
   * (src/bounds/gate-reading.ts): a "Ｒｅｆｕｎｄ" subject passed a `matches: refund` gate.
   */
  gatesFoldText: 'gates-fold-text',
  /**
   * A user message that says nothing (src/bounds/blank-text.ts) is refused: a prompt, a sub-agent's, a session's, an
   * edit's before the model; a rejection after the model whose reason says nothing sends the default words instead.
   */
  blankUserMessagesRefused: 'blank-user-messages-refused',
  /**
   * A model call whose messages by reference its run cannot give (the run's code makes other messages than the code
   * that scheduled the call) is made once more with them whole (model-call.ts), rather than failing the run.
   */
  messagesWholeWhenUnavailable: 'messages-whole-when-unavailable',
  /**
   * A model call's result names the chain hash of what it sent; where this run's code makes other messages of the same
   * transcript (it replays on code that words a note otherwise), its next call is sent whole (sent-messages.ts).
   */
  messagesSentCompared: 'messages-sent-compared',
} as const;
