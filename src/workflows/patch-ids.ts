/**
 * Every patch id, in one place. Each marks a change that arrived while runs were paused: runs that started before
 * it keep the old branch, new runs take the new one. Workflow code asks `takesPatch(id)`, never the SDK's
 * `patched()` (see PATCH_SETS). See README, "Changing workflow code while runs are paused", for when a patch may be
 * retired.
 */
export const PATCHES = {
  /** Tools write the text approvers read (`describe: true`). */
  toolDescriptions: 'tool-written-approval-descriptions',
  /** Decision rules v2: an edit into a gated call needs its approvers; four eyes needs the approver named. */
  decisionChecksV2: 'decision-checks-v2',
  /** Quick tools run as local activities. */
  localTools: 'local-tool-activities',
  /** Pending approvals are kept in the memo, for lists across runs. */
  pendingInMemo: 'pending-approvals-in-memo',
  /** A sub-agent reports every decision it received to its parent, taken or refused. */
  reportEveryAnswer: 'sub-agents-report-every-answer',
  /** Notifications in flight get a few seconds before the run closes. */
  flushNotifications: 'flush-notifications-before-close',
  /**
   * Calls get our own ids (`call-1`, `call-2`, …) instead of the model's, which may repeat or be odd; a sub-agent's
   * calls appear in its parent under `<parent call id>/<id>`; and decisions follow rules v3: an edit into another
   * tool is judged by that tool's policy.
   */
  ownCallIds: 'own-call-ids',
  /** A local tool's non-retryable failure (a ToolRefusedError) goes to the model by `onError`, not out of the run. */
  localToolFailures: 'local-tool-failures-to-model',
  /**
   * Continue-as-new lets watchers' waiting stream polls go (they retry on the next run) instead of waiting for
   * every handler to finish, which a watcher's poll never does while the run waits: a watched run would otherwise
   * never continue as new. Marked when the run starts.
   */
  streamHandOff: 'stream-hand-off',
  /**
   * Who decides: reviewers before humans, quorum, escalation tiers, consent that expires, prechecks. Calls are
   * announced under decision rules v4 (quorum). Each new command (a reviewer's or precheck's activity, an
   * escalation timer) also needs the policy or tool that asks for it, which runs recorded before this change never
   * had. (A run's own policy is limited by data instead: see src/workflows/run-policy.ts.)
   */
  whoDecides: 'who-decides',
  /**
   * A run that is about to wait for people with a long history continues as new first, so a decision that comes
   * after the worker let the run go replays a short history (src/workflows/continue-as-new.ts).
   */
  continueBeforeWaits: 'continue-as-new-before-waits',
  /** The same start over before a breakpoint's pause before the model, which can last as long. */
  continueBeforeBreakpoints: 'continue-as-new-before-breakpoints',
  /** And before a model call whose reply may pause at a breakpoint (after the model, or before tools). */
  continueBeforeReplyBreakpoints: 'continue-as-new-before-reply-breakpoints',
  /** A carried state is taken only from the run's own chain, never from a caller (carry-origin.ts). */
  carryFromOwnChain: 'carry-only-from-own-chain',
  /** A run whose decisions must be signed takes its requester only from a request token (proven-requester.ts). */
  provenRequester: 'proven-requester',
  /**
   * A sub-agent's report is taken only while this run waits for that sub-agent, and only for calls in its tree; what
   * it reported goes when it ends (sub-agent-report.ts).
   */
  checkedChildReports: 'checked-child-reports',
  /** A decision with a token, sent to a run that trusts no signer, is refused instead of taken without its token. */
  tokensNeedSigners: 'tokens-need-signers',
  /** A call an approver wrote by an edit is not settled by an `always` decision for its tool (run-decisions.ts). */
  proposalsWaitForPeople: 'proposals-wait-for-people',
  /** An edit's arguments that its tool does not take are refused, instead of dropped before the tool runs. */
  editsKeepEveryArg: 'edits-keep-every-arg',
  /** A start input with a key the workflow does not take fails the run, instead of running without it. */
  strictStartInput: 'strict-start-input',
  /** A signal, update or start that comes with more than its one argument is refused whole (extra-arguments.ts). */
  oneArgumentEach: 'one-argument-each',
  /** A prechecked call's precheck runs before its description, not after (gated-call.ts). */
  worldBeforeDescription: 'world-before-description',
  /**
   * A prechecked call shown without a world (its precheck failed, or it was approved before a proposal's world came)
   * waits again when approved (consent.ts); a call proposed by an edit gets its world and its tool's description
   * while it waits (proposal-preparation.ts).
   */
  unseenWorldWaits: 'unseen-world-waits',
  /** A start input or a decision holding a `__proto__` key is refused whole (src/bounds/proto-keys.ts). */
  protoKeysRefused: 'proto-keys-refused',
  /** Whoever proposed a call by an edit may reject it, as they could the call it replaced (decision-plan.ts). */
  proposersMayWithdraw: 'proposers-may-withdraw',
  /**
   * A call a person wrote (proposed by an edit, or an edit that waits again) is never approved by its deadline: under
   * `onTimeout: 'approve'` it times out instead (proposal-gate.ts), as an `always` approval does not settle it either.
   */
  deadlinesApproveNoProposal: 'deadlines-approve-no-proposal',
  /** Approvers an escalation reached may edit the call within its tool, not only approve it (decision-plan.ts). */
  escalatedMayEdit: 'escalated-approvers-may-edit',
  /**
   * The workflow task that applies a decision starts the approved tool first: the listings (search attributes, memo)
   * and the cancellation of the call's timers follow in the run's next step (run-visibility.ts, deferListings).
   */
  toolFirst: 'decided-tool-starts-first',
  /**
   * The decision's workflow task starts no timer to bound how long lists lag: the decided tool's activity wakes the
   * run (the `listingsDue` signal) if it still runs a moment after it starts (run-visibility.ts, deferListings); and an
   * approved call whose tool has no precheck reaches its tool with no await in between (consent.ts, consentAtOnce).
   * Each took workflow promises, and the timer a command, from the task that starts the tool.
   */
  toolWakesListings: 'tool-wakes-listings',
  /**
   * A call a person wrote by editing the model's reply at a breakpoint waits for someone else, as a proposal does: its
   * writer may not approve it, an `always` approval, a reviewer and its deadline do not settle it (reply-review.ts).
   */
  breakpointCallsWaitForPeople: 'breakpoint-calls-wait-for-people',
  /**
   * Decisions, messages and reports are taken once the run is set up (agent-workflow.ts): the SDK hands a signal that
   * came with the run's first task to its handler as the handler is registered, which was before a continued run
   * restored what it carried, so the signal was refused or lost.
   */
  inputsAfterSetup: 'inputs-after-setup',
  /**
   * An approver entry `user:<id>` matches that identity only and `group:<name>` that group only (may-decide.ts): a
   * bare name also matches a person of the group's name. Before, every entry was a bare name, prefix included. Calls
   * are announced under decision rules v5, and a run's own policy may narrow a bare entry to one kind.
   */
  typedApprovers: 'typed-approvers',
  /**
   * A decision whose claimed or signed names are not names (identity-names.ts: padded, invisible characters, a kind
   * prefix) is refused: `alice ` counted as another approver than `alice` toward a quorum.
   */
  namesChecked: 'names-checked',
  /**
   * `continueAsNew.maxBytes` counts what history grew by since the run started (continue-as-new.ts): a run whose
   * input and carried state alone reached it started over at once, in an endless chain of runs that never stepped.
   */
  sizeFromStart: 'size-from-start',
  /**
   * A run's own breakpoints (`interrupt`) may only tighten its agent's, as its own policy may (tighten-breakpoints.ts):
   * a run could switch off the agent's breakpoint, or name its own approvers for it.
   */
  breakpointsTightenOnly: 'breakpoints-tighten-only',
  /**
   * A name with a hidden character the first rule missed (a tag character, a variation selector, a Hangul filler, a
   * lone surrogate: identity-names.ts) is malformed too: `alice` followed by U+E0041 showed as `alice`.
   */
  hiddenNamesRefused: 'hidden-names-refused',
  /**
   * A run's own policy and breakpoints are limited to LIMITS.runPolicyBytes (contract/run-policy-size.ts): a start near
   * Temporal's 2 MB payload limit could not be carried into the next run, and its continue-as-new failed forever.
   */
  runPolicyLimited: 'run-policy-limited',
  /**
   * Text a run keeps counts as a payload holds it, JSON escapes included (jsonStringBytes in src/bounds/truncate.ts).
   * The transcript's budget: model replies of control characters, six bytes each there and one in UTF-8, grew the
   * model call's input past Temporal's 2 MB limit within a few steps, and the server ended the run. And a session's
   * messages not yet taken are bounded (LIMITS.queuedMessagesBytes): the queue goes across continue-as-new whole.
   */
  escapedSizes: 'escaped-sizes',
  /**
   * The input a run continues as new with fits Temporal's 2 MiB payload limit (carry-fit.ts): every part of it at its
   * own bound together passed it, and the server ended the run with its waiting calls. What the next run can go on
   * without is shed first; a state that still does not fit stays in its run, which tries again later.
   */
  carryFits: 'carry-fits',
  /**
   * A continue-as-new is measured before anything is handed off or written: a state that cannot fit however much is
   * shed declines at once, without letting its watchers' polls go and without a compaction summary (a model call)
   * that the run would throw away (continue-as-new.ts).
   */
  carryMeasuredFirst: 'carry-measured-first',
  /**
   * A start sent straight to Temporal is held to the naming rule too (src/policy/approver-entries.ts): an approver
   * entry that names no one locks its tool for good, and a requester's name padded or with a hidden character is
   * another person to four eyes. The client, the API and the CLI refused such a start before it reached the server;
   * another SDK, the `temporal` CLI or a parent workflow did not.
   */
  startNamesChecked: 'start-input-names-checked',
  /**
   * The text approvers read, as the policy writes it, is cut to LIMITS.descriptionBytes: the default quoted a call's
   * arguments whole, and a waiting call carried that text twice besides them (its gate and its pending entry), five
   * copies of 64 KiB of arguments in all.
   */
  descriptionsBounded: 'descriptions-bounded',
  /**
   * The memo lists waiting calls as every list shows them, arguments over LIMITS.listedArgumentsBytes as a marked
   * preview (listed-approval.ts): a list read from the memo showed them whole and unmarked, one that asked the run a
   * preview. Smaller entries also leave more runs' lists in the memo.
   */
  previewsInMemo: 'previews-in-memo',
  /**
   * A tool's own text for approvers is cut like the policy's (description-bound.ts): to LIMITS.descriptionBytes with
   * its prefix and the usual marker. It was cut to 4,000 UTF-16 units after the prefix, which could split a
   * surrogate pair, left no marker, and let a long prefix or multi-byte text pass the bound.
   */
  toolDescriptionsBounded: 'tool-descriptions-bounded',
  /** A sub-agent cancelled on its own (not by its parent's cancellation) is its call's failure, told to the model. */
  subAgentCancelIsToolFailure: 'sub-agent-cancel-is-tool-failure',
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
} as const;

export type PatchId = (typeof PATCHES)[keyof typeof PATCHES];
