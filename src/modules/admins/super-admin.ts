import type { Executor } from '../../platform/db/database.js';
import { ForbiddenError } from '../../platform/errors.js';
import type { Actor } from '../audit/index.js';
import type { AdminsRepository } from './admins.repository.js';
import { SUPER_ADMIN } from './permissions.js';

/**
 * Super-Admin-only operations check the actor's current role in the database (not only the
 * permissions frozen in the token), so a demoted Super Admin loses these powers at once.
 */
export async function assertSuperAdmin(ex: Executor, admins: AdminsRepository, actor: Actor, message: string): Promise<void> {
  if (actor.type !== 'admin' || actor.id === null) throw new ForbiddenError(message);
  const me = await admins.findById(ex, actor.id);
  if (!me || me.deletedAt !== null || me.roleName !== SUPER_ADMIN) throw new ForbiddenError(message);
}

export async function isSuperAdmin(ex: Executor, admins: AdminsRepository, actor: Actor): Promise<boolean> {
  if (actor.type !== 'admin' || actor.id === null) return false;
  const me = await admins.findById(ex, actor.id);
  return !!me && me.deletedAt === null && me.roleName === SUPER_ADMIN;
}
