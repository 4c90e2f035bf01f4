import { Type } from 'typebox';
import { Instant, IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';

export const DocumentStatusSchema = Type.Union(
  [Type.Literal('Draft'), Type.Literal('Published'), Type.Literal('Withdrawn')],
  { description: 'Draft (new, not visible) → Published (visible to customers) → Withdrawn (hidden again; may be published again)' },
);

export const DocumentBody = StrictObject({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  message: Type.String({ minLength: 1, maxLength: 20_000 }),
});

/** Optional: no body publishes now. */
export const PublishBody = StrictObject({ publish_at: Type.Optional(Instant) });

export const Document = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  message: Type.String(),
  status: DocumentStatusSchema,
  publish_at: Type.Union([Timestamp, Type.Null()], { description: 'a scheduled publication not yet made' }),
  published_at: Type.Union([Timestamp, Type.Null()]),
  withdrawn_at: Type.Union([Timestamp, Type.Null()]),
  created_by_admin_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const PublicDocument = Type.Object({ id: Type.Integer(), title: Type.String(), message: Type.String(), published_at: Timestamp });

export const DocumentIdParams = Type.Object({ id: IntId });
export const DocumentListQuery = Type.Object({ ...PageQuery.properties, status: Type.Optional(DocumentStatusSchema) });
export const Deleted = Type.Object({ id: Type.Integer() });
