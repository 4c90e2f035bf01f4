/**
 * The one rule for a load balancer's health-check path, used by the API's request schema and by
 * the datacenter adapters before they write it into a configuration: a `/` then URL path and
 * query characters (RFC 3986 unreserved, sub-delims but `'`, `:`, `@`, `%`, `/`, `?`). No space,
 * `#`, quote, brace or backslash: HAProxy's configuration splits words on them or treats them as
 * quoting and comments (`/'` made `haproxy -c` fail).
 */
export const HEALTH_CHECK_PATH_PATTERN = "^/[A-Za-z0-9._~!$&()*+,;=:@%/?-]*$";

export const HEALTH_CHECK_PATH = new RegExp(HEALTH_CHECK_PATH_PATTERN);
