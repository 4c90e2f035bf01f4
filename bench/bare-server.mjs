/* global process, console, Buffer, URLSearchParams */
// The bare floor: Fastify 5 + pg doing the same database work as the service's routes and nothing
// else (no schemas, hooks, security headers, metrics). `npm run bench` runs it as a process of its
// own, like the service, so neither shares the load generator's event loop.
//
//   DATABASE_URL=postgres://... JWT_SECRET=... PORT=... node bench/bare-server.mjs
// It prints "listening" once it accepts connections.
import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.DATABASE_URL;
const secret = process.env.JWT_SECRET ?? '';
const pgoneKey = process.env.PGONE_API_KEY ?? '';
const pgoneMerchant = process.env.PGONE_MERCHANT_CODE ?? '';
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });

/** HS256 JWT check: signature, expiry, kind. */
function verify(token) {
  if (!token) return null;
  const [h, p, s] = token.split('.');
  if (!h || !p || !s) return null;
  const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  if (claims.typ !== 'access' || claims.exp <= Date.now() / 1000) return null;
  return claims;
}

function cookie(header, name) {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

// GET /api/inf: JWT from the cookie, the session by primary key, the customer joined to the wallet by primary key.
app.get('/inf', async (req, reply) => {
  const claims = verify(cookie(req.headers.cookie, 'access_token'));
  if (!claims) return reply.status(401).send({ message: 'Unauthenticated' });
  const session = await pool.query('select id, customer_id, revoked_at from customer_sessions where id = $1', [claims.sid]);
  const s = session.rows[0];
  if (!s || s.revoked_at || String(s.customer_id) !== claims.sub) return reply.status(401).send({ message: 'Unauthenticated' });
  const { rows } = await pool.query(
    `select c.*, coalesce(w.actual_balance, 0) as actual_balance, coalesce(w.current_balance, 0) as current_balance
       from customers c left join wallets w on w.customer_id = c.id where c.id = $1`,
    [s.customer_id],
  );
  const c = rows[0];
  return {
    message: 'OK',
    data: {
      id: c.id,
      email: c.email,
      first_name: c.first_name,
      last_name: c.last_name,
      is_active: c.is_active,
      account_type: c.account_type,
      billing_type: c.billing_type,
      actual_balance: Number(c.actual_balance),
      current_balance: Number(c.current_balance),
      personal: c.personal_profile,
      business: c.business_profile,
    },
  };
});

// GET /api/lookup/city
app.get('/city', async (req) => {
  const provinceId = Number(req.query.province_id);
  const { rows } = await pool.query('select id, province_id, name from cities where province_id = $1 order by name', [provinceId]);
  return { message: 'OK', data: rows };
});

// POST /api/webhook/pgone/callback: the signature, then in one transaction the invoice marked Paid
// (once) and a crediting job queued, as the service does (it queues through pg-boss).
app.register(async (scope) => {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body)));
  });
  scope.post('/callback', async (req, reply) => {
    const b = req.body;
    const expected = createHmac('sha256', pgoneKey).update(`${pgoneMerchant}${b.amount}${b.merchantOrderId}`).digest('hex');
    if (!b.signature || b.signature.length !== expected.length || !timingSafeEqual(Buffer.from(b.signature), Buffer.from(expected))) {
      return reply.status(401).send({ message: 'Invalid signature' });
    }
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query(
        `update topup_invoices set status = 'Paid', paid_at = now() where id = $1 and status = 'Pending' returning id, customer_id`,
        [b.merchantOrderId],
      );
      if (rows[0]) {
        await client.query(`insert into bench_bare_jobs (name, data) values ('billing-high', $1)`, [JSON.stringify({ invoiceId: rows[0].id })]);
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
    return { message: 'OK' };
  });
});

// POST /callback-credit: the pgone form body and its signature, then the invoice marked Paid and
// credited, its BalanceLogAdd entry and the wallet update in ONE statement (autocommit): the floor of
// crediting synchronously (bench/callbacks.bench.ts). A repeat moves nothing and answers 200.
app.register(async (scope) => {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body)));
  });
  scope.post('/callback-credit', async (req, reply) => {
    const b = req.body;
    const expected = createHmac('sha256', pgoneKey).update(`${pgoneMerchant}${b.amount}${b.merchantOrderId}`).digest('hex');
    if (!b.signature || b.signature.length !== expected.length || !timingSafeEqual(Buffer.from(b.signature), Buffer.from(expected))) {
      return reply.status(401).send({ message: 'Invalid signature' });
    }
    await pool.query(
      `with inv as (
         update topup_invoices set status = 'Paid', paid_at = now(), credited_at = now(), credited_bonus = 0, updated_at = now()
         where id = $1 and status = 'Pending' and gateway_name = 'pgone' and total_amount = $2::numeric
         returning id, customer_id, amount, method_name
       ), w as (
         update wallets w set actual_balance = w.actual_balance + inv.amount, current_balance = w.current_balance + inv.amount
         from inv where w.customer_id = inv.customer_id
         returning w.customer_id, w.actual_balance, w.current_balance
       )
       insert into balance_logs (customer_id, type, amount, actual_amount, bonus_amount, actual_balance_after, current_balance_after, reference_type, reference_id, description)
       select inv.customer_id, 'BalanceLogAdd', inv.amount, inv.amount, 0, w.actual_balance, w.current_balance, 'topup_invoice', inv.id::text, 'Top-up via pgone ' || inv.method_name
       from inv join w on w.customer_id = inv.customer_id`,
      [b.merchantOrderId, b.amount],
    );
    return { message: 'OK' };
  });
});

app.get('/readyz', async () => ({ status: 'ready' }));

// a queue table of its own (the service's is pg-boss's job table)
if (url) await pool.query('create table if not exists bench_bare_jobs (id bigserial primary key, name text not null, data jsonb, created_on timestamptz not null default now())');

await app.listen({ port: Number(process.env.PORT ?? 3100), host: '127.0.0.1' });
console.log('listening');
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end()).then(() => process.exit(0));
});
