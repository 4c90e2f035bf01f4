import { Type } from 'typebox';
import { IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';

export const BlockStorageMachine = Type.Object({
  id: Type.Integer(),
  location_id: Type.Integer(),
  name: Type.String(),
  hypervisor_ip: Type.String(),
  capacity_gb: Type.Integer(),
  used_gb: Type.Integer(),
  free_gb: Type.Integer(),
  created_at: Timestamp,
});

export const StorageTier = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  is_active: Type.Boolean({ description: 'false: not offered when creating a VM' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const UpdateStorageTierBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
  description: Type.String({ maxLength: 500 }),
});

export const IdParams = Type.Object({ id: IntId });
