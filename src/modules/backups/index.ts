export { createBackupsModule } from './backups.module.js';
export { BackupsService, BACKUP_RESOURCE } from './backups.service.js';
export { BackupWorkService } from './backup-work.service.js';
export { CHUNK_BYTES, manifestKey, chunkKey, type Manifest } from './chunk-store.js';
