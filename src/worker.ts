// The worker alone: the same process as `npm start` with ROLE=worker.
process.env.ROLE = 'worker';
await import('./server.js');
