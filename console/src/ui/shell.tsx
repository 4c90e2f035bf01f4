import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  group?: string;
  end?: boolean;
}

/** The frame of both consoles: navigation at the side (a menu button at 375 px), a top bar, the page. */
export function Shell({ brand, nav, top, banner, staff, children }: { brand: string; nav: NavItem[]; top: ReactNode; banner?: ReactNode; staff?: boolean; children: ReactNode }) {
  const location = useLocation();
  // the menu (narrow screens) closes when a link leads elsewhere
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.pathname;
  // after a navigation the focus goes to the page (a screen reader starts there, Tab goes on from
  // there), not left on a link or a button of a screen that is gone; not on the first screen drawn
  const main = useRef<HTMLElement>(null);
  const drawn = useRef<string | null>(null);
  useEffect(() => {
    if (drawn.current !== null && drawn.current !== location.pathname) main.current?.focus();
    drawn.current = location.pathname;
  }, [location.pathname]);
  return (
    <div className={`shell ${staff ? 'staff' : ''}`}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <aside className={`side ${open ? 'open' : ''}`}>
        <div className="head">
          <p className="brand">{brand}</p>
          <button type="button" className="btn menu-toggle" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpenAt(open ? null : location.pathname)}>
            Menu
          </button>
        </div>
        <nav id="main-nav" aria-label="Main">
          <ul>
            {nav.map((item, i) => {
              const heading = item.group && item.group !== nav[i - 1]?.group ? item.group : undefined;
              return (
                <li key={item.to}>
                  {heading ? <p className="group">{heading}</p> : null}
                  <NavLink to={item.to} end={item.end}>
                    {item.label}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
      </aside>
      <div className="main">
        {banner}
        <header className="topbar">{top}</header>
        {/* data-path: the route drawn (the browser tests wait for it after navigating) */}
        <main ref={main} id="main" className="content" tabIndex={-1} data-path={location.pathname + location.search}>
          {children}
        </main>
      </div>
    </div>
  );
}
