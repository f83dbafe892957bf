import { patched } from '@temporalio/workflow';
import { PATCHES, type PatchId } from './patch-ids.js';

// Workflow code asks here; the ids have a file of their own for size.
export { PATCHES, type PatchId };

/**
 * Patch sets: a run takes every patch of one set at its start, through one marker in its first workflow task, and
 * keeps them to its end.
 *
 * Why not each `patched()` where it is needed: on replay Core knows a patch only from the markers of the workflow
 * task it is replaying, and a patch first asked right after a local activity resolves (the agent's resolution,
 * a local tool) can be replayed in another task than the one that recorded it. A query answered while the local
 * activity ran makes Core end that task early and deliver the result in a new one; replay delivers it in the
 * first. `patched()` then answers false, and the run fails to replay ("Non-deprecated patch marker encountered
 * for change …"): a run that could not be queried once completed, or decided once evicted. Asked in the run's
 * first activation, before any activity, a patch replays in the task that recorded it.
 *
 * Each set's list is written out and never changes, since runs recorded which set they took. A new change: its
 * id in PATCHES, and a new set first in this list, holding the newest set's patches and the new id.
 */
const SET_1: readonly PatchId[] = [
  PATCHES.toolDescriptions,
  PATCHES.decisionChecksV2,
  PATCHES.localTools,
  PATCHES.pendingInMemo,
  PATCHES.reportEveryAnswer,
  PATCHES.flushNotifications,
  PATCHES.ownCallIds,
  PATCHES.localToolFailures,
  PATCHES.streamHandOff,
  PATCHES.whoDecides,
];
const SET_2: readonly PatchId[] = [...SET_1, PATCHES.continueBeforeWaits];
const SET_3: readonly PatchId[] = [...SET_2, PATCHES.continueBeforeBreakpoints];
const SET_4: readonly PatchId[] = [...SET_3, PATCHES.continueBeforeReplyBreakpoints, PATCHES.carryFromOwnChain];
const SET_5: readonly PatchId[] = [...SET_4, PATCHES.provenRequester];
const SET_6: readonly PatchId[] = [
  ...SET_5,
  PATCHES.checkedChildReports,
  PATCHES.tokensNeedSigners,
  PATCHES.proposalsWaitForPeople,
  PATCHES.editsKeepEveryArg,
  PATCHES.strictStartInput,
];
const SET_7: readonly PatchId[] = [...SET_6, PATCHES.oneArgumentEach, PATCHES.worldBeforeDescription];
const SET_8: readonly PatchId[] = [...SET_7, PATCHES.unseenWorldWaits, PATCHES.protoKeysRefused, PATCHES.proposersMayWithdraw];
const SET_9: readonly PatchId[] = [...SET_8, PATCHES.deadlinesApproveNoProposal, PATCHES.escalatedMayEdit];
const SET_10: readonly PatchId[] = [...SET_9, PATCHES.toolFirst];
const SET_11: readonly PatchId[] = [...SET_10, PATCHES.toolWakesListings];
const SET_12: readonly PatchId[] = [...SET_11, PATCHES.breakpointCallsWaitForPeople, PATCHES.inputsAfterSetup];
const SET_13: readonly PatchId[] = [...SET_12, PATCHES.typedApprovers, PATCHES.namesChecked];
const SET_14: readonly PatchId[] = [
  ...SET_13,
  PATCHES.sizeFromStart,
  PATCHES.breakpointsTightenOnly,
  PATCHES.hiddenNamesRefused,
  PATCHES.runPolicyLimited,
];
const SET_16: readonly PatchId[] = [...SET_14, PATCHES.escapedSizes, PATCHES.carryFits];
const SET_17: readonly PatchId[] = [
  ...SET_16,
  PATCHES.carryMeasuredFirst,
  PATCHES.startNamesChecked,
  PATCHES.descriptionsBounded,
  PATCHES.previewsInMemo,
];
const SET_18: readonly PatchId[] = [...SET_17, PATCHES.toolDescriptionsBounded];
const SET_19: readonly PatchId[] = [...SET_18, PATCHES.subAgentCancelIsToolFailure];
const SET_20: readonly PatchId[] = [
  ...SET_19,
  PATCHES.stepCallsEndTogether,
  PATCHES.subAgentIdTakenIsToolFailure,
  PATCHES.quorumApprovalsLapse,
  PATCHES.standingDecisionsNeedAuthority,
  PATCHES.opposedAlwaysRefused,
  PATCHES.auditKeepsDecided,
];
const SET_21: readonly PatchId[] = [
  ...SET_20,
  PATCHES.exactDurations,
  PATCHES.recutCountsAll,
  PATCHES.continuedSaysSo,
  PATCHES.approvalsSayUntil,
  PATCHES.startInMemo,
];
const SET_22: readonly PatchId[] = [...SET_21, PATCHES.breakpointsListAtOnce, PATCHES.tokensPassToOwners];
const SET_23: readonly PatchId[] = [...SET_22, PATCHES.forwardsHearBack, PATCHES.subAgentCallsAnnounced];
const SET_24: readonly PatchId[] = [...SET_23, PATCHES.reportsConfirmed];
const SET_25: readonly PatchId[] = [...SET_24, PATCHES.toolArgumentsPlainJson];
const SET_26: readonly PatchId[] = [...SET_25, PATCHES.idlePollsReleased];
const SET_27: readonly PatchId[] = [...SET_26, PATCHES.fourEyesAnswers, PATCHES.webhooksOutliveRun];
const SET_28: readonly PatchId[] = [...SET_27, PATCHES.schemaPatternsLinear, PATCHES.gatesFailSafe];
const SET_29: readonly PatchId[] = [
  ...SET_28,
  PATCHES.schemaChecksBounded,
  PATCHES.rejectOnlyReviewers,
  PATCHES.namesAnyCase,
  PATCHES.startInputDepthBound,
  PATCHES.reportsCoalesced,
];
const SET_30: readonly PatchId[] = [...SET_29, PATCHES.notificationsBounded];
const SET_31: readonly PatchId[] = [...SET_30, PATCHES.messagesByReference];
const SET_32: readonly PatchId[] = [...SET_31, PATCHES.gatesFoldText, PATCHES.blankUserMessagesRefused];
const SET_33: readonly PatchId[] = [...SET_32, PATCHES.messagesWholeWhenUnavailable];
const SET_34: readonly PatchId[] = [...SET_33, PATCHES.messagesSentCompared];
export const PATCH_SETS: readonly { readonly id: string; readonly patches: readonly PatchId[] }[] = [
  { id: 'patch-set-34', patches: SET_34 },
  { id: 'patch-set-33', patches: SET_33 },
  { id: 'patch-set-32', patches: SET_32 },
  { id: 'patch-set-31', patches: SET_31 },
  { id: 'patch-set-30', patches: SET_30 },
  { id: 'patch-set-29', patches: SET_29 },
  { id: 'patch-set-28', patches: SET_28 },
  { id: 'patch-set-27', patches: SET_27 },
  { id: 'patch-set-26', patches: SET_26 },
  { id: 'patch-set-25', patches: SET_25 },
  { id: 'patch-set-24', patches: SET_24 },
  { id: 'patch-set-23', patches: SET_23 },
  { id: 'patch-set-22', patches: SET_22 },
  { id: 'patch-set-21', patches: SET_21 },
  { id: 'patch-set-20', patches: SET_20 },
  { id: 'patch-set-19', patches: SET_19 },
  { id: 'patch-set-18', patches: SET_18 },
  { id: 'patch-set-17', patches: SET_17 },
  { id: 'patch-set-16', patches: SET_16 },
  { id: 'patch-set-15', patches: [...SET_14, PATCHES.escapedSizes] },
  { id: 'patch-set-14', patches: SET_14 },
  { id: 'patch-set-13', patches: SET_13 },
  { id: 'patch-set-12', patches: SET_12 },
  { id: 'patch-set-11', patches: SET_11 },
  { id: 'patch-set-10', patches: SET_10 },
  { id: 'patch-set-9', patches: SET_9 },
  { id: 'patch-set-8', patches: SET_8 },
  { id: 'patch-set-7', patches: SET_7 },
  { id: 'patch-set-6', patches: SET_6 },
  { id: 'patch-set-5', patches: SET_5 },
  { id: 'patch-set-4', patches: SET_4 },
  { id: 'patch-set-3', patches: SET_3 },
  { id: 'patch-set-2', patches: SET_2 },
  { id: 'patch-set-1', patches: SET_1 },
];

/** The patches this run took at its start; undefined for a run started before patch sets. Module state is per run. */
let taken: readonly PatchId[] | undefined;

/**
 * Called first in a run's first activation: the newest set for a new run, the set it recorded for an older one. A
 * run started before sets replays no set marker here, and keeps asking each patch of the first set where it is
 * needed, as it did when it recorded its history.
 */
export function takePatchesAtStart(): void {
  taken = PATCH_SETS.find((set) => patched(set.id))?.patches;
}

/** Whether this run takes the change `id`: a run keeps the patches of the code that started it, to its end. */
export function takesPatch(id: PatchId): boolean {
  if (taken) return taken.includes(id);
  return SET_1.includes(id) && patched(id);
}
