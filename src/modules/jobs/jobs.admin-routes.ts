import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import { jobRunView, jobView } from './jobs.present.js';
import { JobItem, JobNameParams, JobRunSchema } from './jobs.schemas.js';
import type { JobsAdminService } from './jobs.service.js';

const tags = ['Backoffice: jobs'];

export const jobsAdminRoutes: FastifyPluginAsyncTypebox<{ jobs: JobsAdminService }> = async (app, { jobs }) => {
  app.get(
    '',
    {
      config: { permission: 'view_jobs' },
      schema: { tags, summary: 'Registered jobs with their queue, schedule (as the job queue holds it, and when it fires next) and last runs', response: { 200: Envelope(Type.Array(JobItem)), ...errorResponses(401, 403) } },
    },
    async () => ({
      message: 'OK',
      data: (await jobs.list()).map(jobView),
    }),
  );

  app.post(
    '/:name/run',
    {
      config: { permission: 'manage_jobs', audit: 'job.run' },
      schema: {
        tags,
        summary: 'Runs a job now in this process (Super Admin only) and reports the run',
        params: JobNameParams,
        response: { 200: Envelope(JobRunSchema), ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      const run = await jobs.run(actorOf(req), req.params.name);
      return { message: run.status === 'succeeded' ? 'Job ran' : 'Job failed', data: jobRunView(run) };
    },
  );
};
