/**
 * Why the client cannot read a run as asked, typed. Apart from src/errors.ts because only src/client/ throws them;
 * they are HitlErrors like the rest, so the CLI and the API map them the same way (an exit code, a status).
 */
import { revealHidden } from '../contract/hidden-characters.js';
import { HitlError } from '../errors.js';

/**
 * A read of a run's stream from an offset past every item it has given out (a resume id from another run, or made
 * up). `end` is the first offset no item has: an open run's next item gets it; a closed run never has another (the
 * end the client tells of a run Temporal ended, src/client/ended-run.ts, is one of its items).
 */
export class StreamOffsetError extends HitlError {
  static readonly errorName = 'StreamOffsetError';
  readonly code = 'invalid_offset';
  constructor(
    readonly workflowId: string,
    readonly offset: number,
    readonly end: number,
    readonly closed = false,
  ) {
    super(
      StreamOffsetError.errorName,
      closed
        ? `Run ${workflowId} has ended and its stream has no offset ${offset}: ${end > 0 ? `its last item is ${end - 1}` : 'it has no items'}.`
        : `Run ${workflowId}'s stream has no offset ${offset} yet: its next item will be ${end}.`,
    );
  }
}

/** A workflow id whose workflow is not an agent run (another type, such as the store's): no run to show or follow. */
export class NotAnAgentRunError extends HitlError {
  static readonly errorName = 'NotAnAgentRunError';
  readonly code = 'not_an_agent_run';
  constructor(
    readonly workflowId: string,
    readonly workflowType: string,
  ) {
    super(NotAnAgentRunError.errorName, `Workflow ${workflowId} is a ${workflowType}, not an agent run.`);
  }
}

/**
 * A run that cannot move by itself (src/client/run-health.ts: its workflow task keeps failing, or no worker polls
 * its task queue), so following it would only wait. `hitl show` tells why, as this error's message does.
 */
export class RunStuckError extends HitlError {
  static readonly errorName = 'RunStuckError';
  readonly code = 'run_stuck';
  constructor(
    readonly workflowId: string,
    message: string,
  ) {
    super(RunStuckError.errorName, message);
  }
}

/**
 * A message or `end` for a session someone else asked for, from a caller who is known (the API's token): only the
 * run's requester speaks in its conversation. Another user's words would reach the agent as the requester's, and
 * the calls they led to would wait for approvers as the requester's.
 */
export class NotRequesterError extends HitlError {
  static readonly errorName = 'NotRequesterError';
  readonly code = 'not_requester';
  constructor(
    readonly workflowId: string,
    readonly requester: string,
  ) {
    super(
      NotRequesterError.errorName,
      `Run ${workflowId} was asked for by ${requester}: only they may send it messages, end it or cancel it.`,
    );
  }
}

/** A request only an open run can take (a cancel): the run has closed. */
export class RunClosedError extends HitlError {
  static readonly errorName = 'RunClosedError';
  readonly code = 'run_closed';
  constructor(
    readonly workflowId: string,
    status: string,
  ) {
    super(
      RunClosedError.errorName,
      `Run ${workflowId} has already closed (${status.toLowerCase().replaceAll('_', ' ')}): there is nothing to cancel.`,
    );
  }
}

/** A run id a start may not take: blank, too long, holding a character that hides, or naming what runs start themselves. */
export class RunIdRefusedError extends HitlError {
  static readonly errorName = 'RunIdRefusedError';
  readonly code = 'run_id_refused';
  constructor(workflowId: string, why: string) {
    // Quoted with what hides shown: the message is read as it is by a library's caller, not only by our screens.
    super(RunIdRefusedError.errorName, `The run id ${revealHidden(JSON.stringify(workflowId.slice(0, 200)))} cannot be used: ${why}.`);
  }
}
