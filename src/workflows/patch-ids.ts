/**
 * Every patch id, in one place. Each marks a change that arrived while runs were paused: runs that started before
 * it keep the old branch, new runs take the new one. Workflow code asks `takesPatch(id)`, never the SDK's
 * `patched()` (see PATCH_SETS). See README, "Changing workflow code while runs are paused", for when a patch may be
 * retired.
 */
import { PATCHES_SINCE_SET_20 } from './patch-ids-since-set-20.js';

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
  // Patch sets 20 and later: patch-ids-since-set-20.ts, for size.
  ...PATCHES_SINCE_SET_20,
} as const;

export type PatchId = (typeof PATCHES)[keyof typeof PATCHES];
