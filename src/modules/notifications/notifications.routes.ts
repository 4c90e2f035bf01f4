import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { pageMeta, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, PageMeta } from '../../platform/http/schemas.js';
import { Type } from 'typebox';
import { Notification, NotificationIdParams, NotificationListQuery, ReadAllAnswer } from './notifications.schemas.js';
import { notificationView, readAllView } from './notifications.present.js';
import type { NotificationsService } from './notifications.service.js';

const tags = ['Notifications'];

/** /api/notifications: the customer's notifications (customer surface). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationsService }> = async (app, { notifications }) => {
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'My notifications, newest first',
        description: '`meta.unread_count` is the same number as `unread_count` in GET /api/inf.',
        querystring: NotificationListQuery,
        response: {
          200: Type.Object({ message: Type.String(), data: Type.Array(Notification), meta: Type.Object({ ...PageMeta.properties, unread_count: Type.Integer() }) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (req) => {
      const customerId = customerOf(req).customerId;
      const p = pageOf(req.query);
      const page = await notifications.list(customerId, p, req.query.unread === true);
      return { message: 'OK', data: page.items.map(notificationView), meta: { ...pageMeta(p, page.total), unread_count: await notifications.unreadCount(customerId) } };
    },
  );

  app.patch(
    '/read-all',
    { config: { activity: false }, schema: { tags, summary: 'Mark all my notifications as read', response: { 200: Envelope(ReadAllAnswer), ...errorResponses(401) } } },
    async (req) => ({ message: 'Notifications marked as read', data: await notifications.markAllRead(customerOf(req).customerId).then((r) => readAllView(r.marked, r.unreadCount)) }),
  );

  app.patch(
    '/:id/read',
    {
      config: { activity: false },
      schema: {
        tags,
        summary: 'Mark one of my notifications as read (repeating it changes nothing)',
        params: NotificationIdParams,
        response: { 200: Envelope(Notification), ...errorResponses(401, 404) },
      },
    },
    async (req) => ({ message: 'Notification marked as read', data: notificationView(await notifications.markRead(customerOf(req).customerId, req.params.id)) }),
  );
};
