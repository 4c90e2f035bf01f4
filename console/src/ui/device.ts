import Bowser from 'bowser';

/**
 * A device session's user agent as a person names their device: "Chrome on Linux", "Safari on
 * iOS", "Firefox on Windows". The raw string stays in the title for whoever needs it. An empty or
 * unreadable agent (an API client, curl) is named as such.
 */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name && !os.name) return `Other client (${userAgent.split(/[\s/]/)[0]})`;
  return `${browser.name ?? 'Unknown browser'} on ${os.name ?? 'an unknown system'}`;
}
