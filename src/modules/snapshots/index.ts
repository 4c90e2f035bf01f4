export { SnapshotsService, type SnapshotWithState } from './snapshots.service.js';
export { SnapshotTasksService, billedGb, snapshotReference } from './snapshot-tasks.service.js';
export { SnapshotsRepository, type Snapshot } from './snapshots.repository.js';
export { snapshotView, adminSnapshotView } from './snapshots.present.js';
export { SNAPSHOT_KIND, SNAPSHOT_STATUSES, type SnapshotStatus } from './snapshots.tables.js';
export { createSnapshotsModule } from './snapshots.module.js';
