import { Type } from 'typebox';
import { IntId, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { ALLOWED_ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from './ticket-attachments.js';

export const TicketStatusSchema = Type.Union(
  [Type.Literal('Open'), Type.Literal('In Progress'), Type.Literal('Closed'), Type.Literal('Archived')],
  { description: 'Open → In Progress (staff reply or assignment) → Closed (customer or staff) → Archived (staff)' },
);
export const TicketPrioritySchema = Type.Union([Type.Literal('Low'), Type.Literal('Medium'), Type.Literal('High')]);

const MessageText = Type.String({ minLength: 1, maxLength: 10_000 });

export const AttachmentUpload = StrictObject({
  filename: Type.String({ minLength: 1, maxLength: 255, description: 'its extension must fit the content type' }),
  content_type: Type.String({ minLength: 1, maxLength: 100, description: Object.keys(ALLOWED_ATTACHMENT_TYPES).join(', ') }),
  content_base64: Type.String({
    minLength: 1,
    maxLength: Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 16,
    description: `standard base64; at most ${MAX_ATTACHMENT_BYTES} bytes decoded; the bytes must be of the stated type`,
  }),
});

const Attachments = Type.Optional(Type.Array(AttachmentUpload, { maxItems: MAX_ATTACHMENTS }));

export const TicketCreateBody = StrictObject({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  message: MessageText,
  priority: Type.Optional(TicketPrioritySchema),
  attachments: Attachments,
});

export const ReplyBody = StrictObject({
  message: MessageText,
  attachments: Attachments,
});

export const PriorityBody = StrictObject({ priority: TicketPrioritySchema });
export const AssignmentBody = StrictObject({ admin_id: IntId });

export const Attachment = Type.Object({
  id: Type.String({ format: 'uuid' }),
  filename: Type.String(),
  content_type: Type.String(),
  size_bytes: Type.Integer(),
  sha256: Type.String(),
  url: Type.String({ description: 'download path (same side of the API as the answer)' }),
});

export const Message = Type.Object({
  id: Type.Integer(),
  ticket_id: Type.Integer(),
  sender_type: Type.Union([Type.Literal('customer'), Type.Literal('admin')]),
  sender: Type.Object({ id: Type.Integer(), name: Type.String() }),
  message: Type.String(),
  attachments: Type.Array(Attachment),
  created_at: Timestamp,
});

const ticketFields = {
  id: Type.Integer(),
  title: Type.String(),
  status: TicketStatusSchema,
  priority: TicketPrioritySchema,
  message_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_message_at: Timestamp,
  closed_at: Type.Union([Timestamp, Type.Null()]),
};

export const CustomerTicket = Type.Object(ticketFields);
export const CustomerTicketDetail = Type.Object({ ...ticketFields, messages: Type.Array(Message) });

export const StaffTicket = Type.Object({
  ...ticketFields,
  customer: Type.Object({ id: Type.Integer(), email: Type.String(), full_name: Type.String() }),
  assigned_admin: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
  archived_at: Type.Union([Timestamp, Type.Null()]),
});

export const Conversations = Type.Object({ ticket: StaffTicket, messages: Type.Array(Message) });

export const TicketInsight = Type.Object({
  total: Type.Integer(),
  open: Type.Integer(),
  in_progress: Type.Integer(),
  closed: Type.Integer(),
  archived: Type.Integer(),
  unassigned: Type.Integer({ description: 'Open and In Progress tickets nobody is assigned to' }),
});

export const TicketIdParams = Type.Object({ id: IntId });
export const AttachmentParams = Type.Object({ id: IntId, attachment_id: Type.String({ format: 'uuid' }) });

export const CustomerTicketQuery = Type.Object({ ...PageQuery.properties, status: Type.Optional(TicketStatusSchema) });

export const StaffTicketQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Union([Type.Literal('Open'), Type.Literal('In Progress'), Type.Literal('Closed'), Type.Literal('Archived')], { description: 'default: every status but Archived' })),
  priority: Type.Optional(TicketPrioritySchema),
  assigned_admin_id: Type.Optional(IntId),
  unassigned: Type.Optional(Type.Boolean()),
  customer_id: Type.Optional(IntId),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'in the title or the customer e-mail' })),
});

export const BinaryFile = Type.Unsafe({ type: 'string', format: 'binary', description: 'the file, as an attachment download' });
