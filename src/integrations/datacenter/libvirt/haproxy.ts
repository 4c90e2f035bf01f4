import { HEALTH_CHECK_PATH } from '../health-check-path.js';
import type { LoadBalancerSpec } from '../balancers.js';

/** Health checks: every 2 s; 2 failures take a target out, 2 successes bring it back. */
export const HEALTH_INTERVAL_MS = 2000;
export const HEALTH_FALL = 2;
export const HEALTH_RISE = 2;

export interface ResolvedTarget {
  reference: string;
  address: string;
}

/**
 * The HAProxy configuration of one balancer: a frontend per forwarding rule on the balancer's
 * address, a backend with every target. http → http is balanced per request (mode http); https
 * and tcp entries pass through as TCP (TLS ends at the targets); udp is not something HAProxy
 * balances, so such a rule is refused.
 */
export function haproxyConfig(spec: LoadBalancerSpec, address: string, targets: ResolvedTarget[]): string {
  const lines: string[] = [
    'global',
    '  user haproxy',
    '  group haproxy',
    '  maxconn 4096',
    '',
    'defaults',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-request 10s',
    '',
  ];
  const hc = spec.healthCheck;
  if (hc) {
    if (!Number.isInteger(hc.port) || hc.port < 1 || hc.port > 65535) throw new Error(`health check port ${hc.port} is not a port`);
    if (hc.path !== null && !HEALTH_CHECK_PATH.test(hc.path)) throw new Error(`health check path ${JSON.stringify(hc.path)} is not a URL path`);
    if (!['http', 'https', 'tcp'].includes(hc.protocol)) throw new Error(`health check protocol ${hc.protocol} is not supported`);
  }
  spec.forwardingRules.forEach((rule, i) => {
    for (const p of [rule.entryPort, rule.targetPort]) {
      if (!Number.isInteger(p) || p < 1 || p > 65535) throw new Error(`port ${p} is not a port`);
    }
    if (rule.entryProtocol === 'udp' || rule.targetProtocol === 'udp') throw new Error('HAProxy does not balance UDP: a udp forwarding rule cannot be applied');
    const http = rule.entryProtocol === 'http';
    const mode = http ? 'http' : 'tcp';
    const name = `rule${i + 1}_${rule.entryPort}`;
    lines.push(`frontend fe_${name}`, `  bind ${address}:${rule.entryPort}`, `  mode ${mode}`, `  default_backend be_${name}`, '');
    lines.push(`backend be_${name}`, `  mode ${mode}`, `  balance ${spec.algorithm === 'least_connections' ? 'leastconn' : 'roundrobin'}`);
    if (http) lines.push('  option forwardfor');
    let check = '';
    if (hc) {
      if (hc.protocol === 'http' || hc.protocol === 'https') {
        lines.push(`  option httpchk GET ${hc.path ?? '/'}`, '  http-check expect status 200-399');
      }
      check = ` check port ${hc.port} inter ${HEALTH_INTERVAL_MS} fall ${HEALTH_FALL} rise ${HEALTH_RISE}${hc.protocol === 'https' ? ' check-ssl verify none' : ''}`;
    }
    const ssl = http && rule.targetProtocol === 'https' ? ' ssl verify none' : '';
    for (const t of targets) lines.push(`  server ${t.reference} ${t.address}:${rule.targetPort}${ssl}${check}`);
    lines.push('');
  });
  return lines.join('\n');
}
