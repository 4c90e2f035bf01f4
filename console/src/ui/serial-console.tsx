import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { Button, ErrorMessage } from './kit';

/** Why the server closed a console, by its close code (docs/api.md, "VM console"). */
const CLOSED: Record<number, string> = {
  1000: 'The console was closed.',
  1001: 'The server is restarting; open the console again.',
  1009: 'What was pasted is too large for the console.',
  4000: 'The VM stopped.',
  4001: 'The console was closed after a while with nothing typed.',
  4002: 'The serial port went away (another console may have taken it over).',
  4003: 'Your access ended (signed out, the session was revoked, or the permission was withdrawn).',
};

/**
 * Runs `fn` with every <style> element it makes carrying the page's CSP nonce: xterm.js styles its
 * rows with <style> elements of its own, which the console's policy (`style-src 'self'`) refuses
 * without it.
 */
function withStyleNonce<T>(fn: () => T): T {
  const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
  if (!nonce) return fn();
  const create = document.createElement;
  document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    const el = create.call(this, tag, options);
    if (tag.toLowerCase() === 'style') el.nonce = nonce;
    return el;
  } as typeof document.createElement;
  try {
    return fn();
  } finally {
    document.createElement = create;
  }
}

type State = { phase: 'idle' } | { phase: 'connecting' } | { phase: 'open' } | { phase: 'closed'; why: string };

/**
 * A VM's serial console in xterm.js: the button asks for a ticket (`ticket`), opens the WebSocket
 * it names and puts the keyboard in the terminal. Shift+Tab leaves the terminal (Tab itself goes
 * to the VM's shell, for completion).
 */
export function SerialConsole({ name, running, ticket }: { name: string; running: boolean; ticket: () => Promise<{ websocket_path: string }> }) {
  const [state, setState] = useState<State>({ phase: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const [session, setSession] = useState(0);
  const screen = useRef<HTMLDivElement>(null);
  const hintId = useId();

  useEffect(() => {
    if (session === 0) return;
    let disposed = false;
    let dispose = () => {};
    void (async () => {
      try {
        const [{ Terminal }, { FitAddon }] = await Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit'), import('@xterm/xterm/css/xterm.css')]);
        const { websocket_path } = await ticket();
        if (disposed || !screen.current) return;
        const term = new Terminal({ cursorBlink: true, fontSize: 14, scrollback: 2000, screenReaderMode: true });
        const fit = new FitAddon();
        term.loadAddon(fit);
        const el = screen.current;
        withStyleNonce(() => term.open(el));
        fit.fit();
        term.attachCustomKeyEventHandler((e) => !(e.key === 'Tab' && e.shiftKey));
        const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${websocket_path}`);
        ws.binaryType = 'arraybuffer';
        ws.onopen = () => {
          setState({ phase: 'open' });
          term.focus();
        };
        ws.onmessage = (m) => term.write(typeof m.data === 'string' ? m.data : new Uint8Array(m.data as ArrayBuffer));
        ws.onclose = (e) => {
          setState({ phase: 'closed', why: e.code === 1006 ? 'The console could not be opened or the connection was lost.' : (CLOSED[e.code] ?? `The console was closed (${e.code}).`) });
          term.options.disableStdin = true;
        };
        const typed = term.onData((d) => ws.readyState === WebSocket.OPEN && ws.send(d));
        const onResize = () => fit.fit();
        window.addEventListener('resize', onResize);
        dispose = () => {
          window.removeEventListener('resize', onResize);
          typed.dispose();
          ws.onclose = null;
          ws.close();
          term.dispose();
        };
        if (disposed) dispose();
      } catch (err) {
        setError(err instanceof ApiError || err instanceof Error ? err : new Error(String(err)));
        setState({ phase: 'idle' });
      }
    })();
    return () => {
      disposed = true;
      dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new session per click
  }, [session]);

  const open = () => {
    setError(null);
    setState({ phase: 'connecting' });
    setSession((n) => n + 1);
  };
  const close = () => {
    setSession(0);
    setState({ phase: 'idle' });
  };
  const shown = state.phase === 'connecting' || state.phase === 'open' || state.phase === 'closed';

  return (
    <section className="card serial-console" aria-labelledby={`${hintId}-title`}>
      <h2 id={`${hintId}-title`}>Console</h2>
      <p className="muted" id={hintId}>
        The serial console of {name}: what you type goes to the VM. Shift+Tab leaves the terminal.
      </p>
      <div className="row">
        {shown ? (
          <Button kind="secondary" onClick={close}>
            Close console
          </Button>
        ) : (
          <Button disabled={!running} onClick={open} title={running ? undefined : 'The console needs a running VM'}>
            Open console
          </Button>
        )}
        <span role="status">{state.phase === 'connecting' ? 'Connecting…' : state.phase === 'open' ? 'Connected.' : state.phase === 'closed' ? state.why : running ? '' : 'The console needs a running VM.'}</span>
      </div>
      <ErrorMessage error={error} />
      {shown ? <div ref={screen} className="terminal-screen" role="region" aria-label={`Terminal of ${name}`} aria-describedby={hintId} /> : null}
    </section>
  );
}
