import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { StrictObject } from '../../platform/http/schemas.js';
import { CreateVmBody, OPERATING_SYSTEMS } from './compute.schemas.js';

/** A POST whose body may be left out: no body is the empty object. */
export function emptyBody(req: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  req.body ??= {};
  done();
}

export const RenameBody = StrictObject({ name: CreateVmBody.properties.name });

export const RebuildBody = StrictObject({
  os: Type.Optional(Type.String({ enum: [...OPERATING_SYSTEMS], description: "the operating system to install (default: the VM's own)" })),
});
