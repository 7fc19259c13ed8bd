/// The contract of `PostStoreProtocol` as checks that any engine's tests run: the suite every engine of this
/// package passes, exported so that an engine written elsewhere can prove that it keeps the same contract.
///
/// Each ``ContractCheck`` holds one rule of the contract that `PostStoreProtocol`'s documentation states — counting,
/// atomic and validated writes, pruning and its limit, previews, streamed writes, queries and search, sync states
/// and their `ETag`s, instances and processes side by side, the changes feed, observation, waiting for locks — and runs on a new store of a
/// ``ContractSubject``, the engine under test.
///
/// The module's article, <doc:PostStoreConformance>, shows an engine's test target that runs them all.
public enum PostStoreContract {
    /// Every check of the contract, each run on a store of its own: pass them as a parameterized test's arguments.
    public static let checks: [ContractCheck] = [
        // Writes and their counts
        .newStoreIsEmpty,
        .upsertCountsInsertedUpdatedAndUnchanged,
        .upsertOfAnEmptyBatchDoesNothing,
        .canonicallyEquivalentTextIsAnUpdate,
        .aBatchWithARepeatedIdIsRefusedWhole,
        .aChangeSetThatUpsertsAndDeletesOneIdIsRefusedWhole,
        .aWriteOfPostsAsReadIsRefusedOnceAnotherWriterChangedThem,
        .applyWritesPostsDeletionsAndSyncStateTogether,
        // Reading and deleting
        .everyKindOfTextRoundTripsExactly,
        .missingIdsReadAsNil,
        .deleteRemovesOnlyHeldIdsAndCountsThem,
        .removeAllEmptiesPostsAndSyncStates,
        // Pruning, deletion limits, previews and the sync state a write records
        .pruneLeavesExactlyTheUpsertedOnesAndSearchForgetsTheRest,
        .aChangeSetOverItsDeletionLimitIsRefusedBeforeAnythingIsWritten,
        .previewReturnsWhatApplyWillAndWritesNothing,
        .aSyncStateCanRecordWhatItsChangeSetDid,
        .aWriteThatChangesPostsForgetsEveryRememberedETag,
        .aConfirmedETagIsKeptOnlyWhileTheStoreStillHoldsIt,
        // Queries and search
        .queryFiltersByIdsAndUsers,
        .querySortsEveryWayWithTiesById,
        .queryWindowsAfterSorting,
        .negativeWindowsAreInvalid,
        .searchFollowsTheDefinedSemantics,
        .searchCombinesWithFiltersOrderAndWindow,
        // Sync states
        .syncStatesRoundTripOnePerSourceMostRecentFirst,
        .sourcesDifferingOnlyInNormalizationAreTwoSources,
        .eTagsDifferingOnlyInNormalizationAreTwoETags,
        .theCountAndTheLastSyncComeFromOneState,
        // Instances, processes and concurrency
        .aSecondInstanceSeesEveryWrite,
        .twoInstancesWritingAtOnceLoseNothing,
        .concurrentWritersOnOneInstanceLoseNothing,
        .readersBesideWritersSeeWholeWritesOnly,
        .theSyncCommittedLastIsTheNewestEvenWithAnEarlierTime,
        // The changes feed
        .theChangesWithoutATokenAreEveryPost,
        .theChangesSinceATokenAreTheLaterWritesOnly,
        .aWriteThatChangesNoPostKeepsTheToken,
        .answersLeadACopyThroughHeldStatesOnly,
        .foreignAndFutureTokensMustRefetch,
        .removeAllMakesEarlierTokensRefetch,
        .aRequiredChangeTokenGuardsTheWrite,
        // Observation
        .anObservedQueryFollowsEachWriteThatChangesIt,
        .anObservedPostAndTheSyncStatesFollowTheirWrites,
        .anotherInstancesWritesReachTheObservers,
        .aSlowObserverGetsTheLatestResultNotABacklog,
        .cancellingTheConsumerEndsTheObservation,
        .anObservationEndsWithTheStoresError,
        // Streamed writes
        .streamedWritesMatchArrayWrites,
        .changeSetUpsertsAndStreamCombine,
        .repeatedIdIntoAnEmptyStore,
        .failingStreamWritesNothing,
        .failingFirstStreamLeavesAnEmptyStore,
        .deletionLimitAppliesToStreams,
        // Another process's write lock
        .waitsForALock,
        .lockTimeout,
        .waitingWritersDoNotStarveThePool,
        .aWaitingWriteEndsWhenItsTaskIsCancelled,
    ]
}
