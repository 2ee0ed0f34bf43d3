//! Volume records: the pending → ready → deleting life cycle, under the registry lock.
