/**
 * Who may decide a call: one rule for the decision planner (which refuses) and the approval views (which show
 * buttons only to those who may press them). Approvers are identities or groups (`approverMatches`); under the
 * four-eyes rule the run's requester may not approve or edit its own calls, nor (decision rules v6) answer for the
 * tool with a response; under a quorum each approver counts once, so one who has approved may not approve again
 * (they may still reject).
 */
export interface DecisionAuthority {
  /** Identities or groups allowed to decide (`user:<id>`, `group:<name>` or a bare name); anyone when absent. */
  approvers?: readonly string[];
  /** Who may not approve or edit (the requester, under four eyes; whoever wrote the call by an edit). */
  excludedApprovers?: readonly string[];
  /** The approver who wrote the call by an edit of another, or of the reply at a breakpoint (`breakpoint:<where>`). */
  proposedBy?: { approver?: string; toolName?: string };
  /** Approvals already counted toward a quorum. */
  approvals?: readonly { approver: string }[];
}

export interface Decider {
  approver?: string;
  groups?: readonly string[];
}

/** `proposer`: a four-eyes refusal of the approver who wrote the call by an edit (not the run's requester). */
export type Verdict =
  | { ok: true }
  | {
      ok: false;
      code: 'approver_required' | 'approver_not_allowed' | 'four_eyes' | 'already_approved';
      reason: string;
      proposer?: boolean;
      /** The proposer wrote the call at a breakpoint, not by an edit of another call. */
      atBreakpoint?: boolean;
    };

/** Which rules a call is decided by: the newest unless the version it was announced under says otherwise. */
export interface DecisionRules {
  /** The four-eyes rule also needs the approver to say who they are (decision rules v2 and up). @default true */
  strictFourEyes?: boolean;
  /** `user:` and `group:` entries name one kind only (decision rules v5 and up). @default true */
  typedApprovers?: boolean;
  /**
   * The four-eyes rule covers a response too (decision rules v6 and up): the agent takes it as the tool's result, so a
   * requester who answered for the tool would write the outcome of their own gated call. @default true
   */
  fourEyesAnswers?: boolean;
  /**
   * Who counts as the same person (four eyes, a quorum's count) is judged without regard to ASCII case (decision
   * rules v7 and up): `Alice` did not count as the requester `alice`, nor as a second approver after `alice`, though
   * the directories names come from (email, Active Directory) mostly take them as one. Only in that direction:
   * approver entries still match exactly, so no one gains authority by a name's case. @default true
   */
  namesAnyCase?: boolean;
}

/** The rules of a pending call's `checks`, the version of the decision rules it was announced under (1 when unset). */
export function decisionRules(checks = 1): Required<DecisionRules> {
  return { strictFourEyes: checks >= 2, typedApprovers: checks >= 5, fourEyesAnswers: checks >= 6, namesAnyCase: checks >= 7 };
}

/**
 * A name as decision rules v7 compare people (`namesAnyCase`): ASCII letters folded, nothing else, so that every
 * engine (and every Unicode version) replays the same answer.
 */
export function personKey(name: string): string {
  return name.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function samePerson(a: string, b: string, anyCase: boolean): boolean {
  return anyCase ? personKey(a) === personKey(b) : a === b;
}

/**
 * What a decision does to the call, which says which rules it falls under: `runs` the tool (approve, edit: four eyes,
 * and a quorum's count), `answers` for it (respond: four eyes, from decision rules v6), or `refuses` it (reject,
 * ignore: approvers only).
 */
export type DecisionEffect = 'runs' | 'answers' | 'refuses';

export function effectOf(type: 'approve' | 'edit' | 'reject' | 'respond' | 'ignore'): DecisionEffect {
  return type === 'approve' || type === 'edit' ? 'runs' : type === 'respond' ? 'answers' : 'refuses';
}

/** What an approver entry names: `user:<id>` a person, `group:<name>` a group, a bare name either kind. */
export function approverEntry(entry: string): { kind: 'user' | 'group' | 'either'; name: string } {
  if (entry.startsWith('user:')) return { kind: 'user', name: entry.slice('user:'.length) };
  if (entry.startsWith('group:')) return { kind: 'group', name: entry.slice('group:'.length) };
  return { kind: 'either', name: entry };
}

/**
 * Whether `who` is one of `approvers`. `user:alice` is the identity alice and `group:finance` the group finance, and
 * neither matches the other kind; a bare `finance` matches an identity or a group of that name, so a person whose
 * identity (an OIDC `sub`, say) equals a group's name would carry that group's authority. Before typed entries
 * (`typed` false) every entry was bare, prefix and all.
 */
export function approverMatches(approvers: readonly string[], who: Decider, typed = true): boolean {
  const groups = who.groups ?? [];
  return approvers.some((entry) => {
    const { kind, name } = typed ? approverEntry(entry) : { kind: 'either', name: entry };
    return (kind !== 'group' && name === who.approver) || (kind !== 'user' && groups.includes(name));
  });
}

/**
 * Whether a run's approver entry lets in no one its agent's entries do not: the same entry, or (typed) one kind of a
 * bare name the agent lists, `group:finance` or `user:finance` under `finance`. For tighten-only.ts.
 */
export function approverWithin(entry: string, agentEntries: readonly string[], typed = true): boolean {
  if (agentEntries.includes(entry)) return true;
  if (!typed) return false;
  const { kind, name } = approverEntry(entry);
  // `group:user:x` narrows nothing: the agent's `user:x` is the person x, not a group of that name.
  return kind !== 'either' && approverEntry(name).kind === 'either' && agentEntries.includes(name);
}

/** @param effect what the decision does (`effectOf`): four eyes applies to one that runs the tool or answers for it. */
export function mayDecide(call: DecisionAuthority, who: Decider, effect: DecisionEffect, rules: DecisionRules = {}): Verdict {
  const { strictFourEyes = true, typedApprovers = true, fourEyesAnswers = true, namesAnyCase = true } = rules;
  const same = (a: string, b: string) => samePerson(a, b, namesAnyCase);
  const approver = who.approver;
  const runsTheTool = effect === 'runs';
  if (call.approvers) {
    if (!who.approver) return { ok: false, code: 'approver_required', reason: `may only be decided by ${call.approvers.join(', ')}` };
    if (!approverMatches(call.approvers, who, typedApprovers)) {
      return { ok: false, code: 'approver_not_allowed', reason: `approvers: ${call.approvers.join(', ')}` };
    }
  }
  if ((runsTheTool || (effect === 'answers' && fourEyesAnswers)) && call.excludedApprovers) {
    if (who.approver === undefined && strictFourEyes)
      return { ok: false, code: 'approver_required', reason: 'falls under the four-eyes rule' };
    if (approver !== undefined && call.excludedApprovers.some((excluded) => same(excluded, approver))) {
      if (call.proposedBy?.approver !== undefined && same(call.proposedBy.approver, approver)) {
        const atBreakpoint = call.proposedBy.toolName?.startsWith('breakpoint:') === true;
        const how = atBreakpoint ? 'at a breakpoint' : 'by an edit';
        return {
          ok: false,
          code: 'four_eyes',
          reason: `${who.approver} wrote this call ${how}`,
          proposer: true,
          ...(atBreakpoint && { atBreakpoint }),
        };
      }
      return { ok: false, code: 'four_eyes', reason: `${who.approver} requested this run` };
    }
  }
  if (runsTheTool && approver !== undefined && call.approvals?.some((a) => same(a.approver, approver))) {
    return { ok: false, code: 'already_approved', reason: `${who.approver} has already approved it` };
  }
  return { ok: true };
}

/**
 * Whether `who` proposed the call by an edit, and so may withdraw it, as they could have rejected the call it
 * replaced. A withdrawal is a reject without `always` (which would reject every later call of a tool they may not
 * decide); the callers check that. The planner (from patch set 8) and the approval views, which offer the
 * withdrawal, share this rule.
 */
export function mayWithdraw(call: DecisionAuthority, who: Decider): boolean {
  return who.approver !== undefined && call.proposedBy?.approver === who.approver;
}
