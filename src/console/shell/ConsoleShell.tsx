import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import {
  Alignment, Button, Classes, Drawer, Menu, MenuDivider, MenuItem, Navbar, NavbarDivider, NavbarGroup, NavbarHeading,
  OverlayToaster, PopoverNext, Position, Toast,
} from '@blueprintjs/core';
import { ChevronUpIcon, LogOutIcon, MenuIcon, UserIcon, SwapHorizontalIcon, LifesaverIcon } from '@blueprintjs/icons';
import { can } from '../../../domain/permissions';
import { PRODUCT_NAME, SCROLL_TOP_THRESHOLD_PX } from '../../../domain/constants';
import { useSession } from '../../lib/session';
import { useSignOutEverywhere } from '../../lib/signOutEverywhere';
import { NoticeQueue } from '../../lib/notify';
import { menuFor } from '../pages';
import { BrandSwitch } from './BrandSwitch';
import { LiveOrderFeedProvider, LiveOrderFeedStatus } from '../orders/feed/LiveOrderFeed';

/** Top bar, side menu (from the console route table, ../pages.tsx), the one toaster and the scroll-to-top button. */
export function ConsoleShell({ children }: { children: ReactNode }) {
  const { role, profile } = useSession();
  // A branch user follows their branch; the other roles their whole scope (the server filters).
  const feedBranchId = role === 'BRANCH_USER' ? profile?.branchId ?? null : null;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [location] = useLocation();
  useEffect(() => { setDrawerOpen(false); }, [location]);
  const menu = <SideMenu role={role} current={location} />;
  const hearsOrders = can(role, 'orders.view') && !!profile;
  const shell = (
    <div className="console">
      <Navbar className="console-topbar">
        <NavbarGroup align={Alignment.START}>
          <Button className="console-menu-toggle" variant="minimal" icon={<MenuIcon />} aria-label="Open menu" onClick={() => setDrawerOpen(true)} />
          <NavbarHeading><Link href="/dashboard" className="console-brand">{PRODUCT_NAME}</Link></NavbarHeading>
        </NavbarGroup>
        <NavbarGroup align={Alignment.END}>
          {hearsOrders && <LiveOrderFeedStatus />}
          {can(role, 'brand.switch') && (
            <>
              <BrandSwitch />
              <Link href="/select_brand" className={`${Classes.BUTTON} ${Classes.MINIMAL}`} aria-label="Switch brand"><SwapHorizontalIcon /></Link>
            </>
          )}
          <NavbarDivider />
          <UserDropdown />
        </NavbarGroup>
      </Navbar>
      <div className="console-body">
        <aside className="console-sidebar" aria-label="Main menu">{menu}</aside>
        <Drawer isOpen={drawerOpen} onClose={() => setDrawerOpen(false)} position={Position.LEFT} size="280px" title={PRODUCT_NAME}>
          <div className={Classes.DRAWER_BODY}>{menu}</div>
        </Drawer>
        <main className="console-main">{children}</main>
      </div>
      <ConsoleToaster />
      <ScrollToTop />
    </div>
  );
  // The feed wraps the pages: their order boards run in its actor system (machines/liveOrderFeed.ts).
  return hearsOrders
    ? <LiveOrderFeedProvider key={`${profile!.id}:${feedBranchId}`} branchId={feedBranchId}>{shell}</LiveOrderFeedProvider>
    : shell;
}

function SideMenu({ role, current }: { role: string | null; current: string }) {
  const [, navigate] = useLocation();
  return (
    <Menu className="console-menu">
      {menuFor(role).map((r) => {
        const Icon = r.menu!.icon;
        return (
          <MenuItem
            key={r.path}
            text={r.menu!.label}
            htmlTitle={r.menu!.label}
            icon={<Icon />}
            active={current === r.path}
            href={r.path}
            onClick={(e: React.MouseEvent) => { e.preventDefault(); navigate(r.path); }}
          />
        );
      })}
    </Menu>
  );
}

/** /SupportPage has no side-menu entry (SPEC.md 6): it is reached from the user menu. */
function SupportLink() {
  const [, navigate] = useLocation();
  return <MenuItem icon={<LifesaverIcon />} text="Support" href="/SupportPage" onClick={(e: React.MouseEvent) => { e.preventDefault(); navigate('/SupportPage'); }} />;
}

/** Ends every session of the user on every device, this one too (src/lib/signOutEverywhere.ts). */
function SignOutEverywhereItem() {
  const { signOutEverywhere, pending } = useSignOutEverywhere();
  return <MenuItem icon={<LogOutIcon />} text="Sign out everywhere" disabled={pending} shouldDismissPopover={false} onClick={() => void signOutEverywhere()} />;
}

function UserDropdown() {
  const { profile, role, send } = useSession();
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label="User menu">
          <li className="console-user-card">
            <strong data-testid="user-fullname">{profile?.fullName}</strong>
            <span data-testid="user-email">{profile?.emailAddress}</span>
            <span className={`${Classes.TAG} ${Classes.MINIMAL}`} data-testid="user-role">{role}</span>
          </li>
          <MenuDivider />
          {can(role, 'support.view') && <SupportLink />}
          <MenuItem icon={<LogOutIcon />} text="Logout" onClick={() => send({ type: 'auth.logout' })} />
          <SignOutEverywhereItem />
        </Menu>
      }
    >
      <Button variant="minimal" icon={<UserIcon />} endIcon={undefined} aria-label="User menu">
        <span className="console-hide-narrow">{profile?.fullName}</span>
      </Button>
    </PopoverNext>
  );
}

/** Every console notice shows for 5 s; the queue owns their lifetimes (src/lib/notify.ts). */
const consoleNotices = new NoticeQueue({ success: 5000, primary: 5000, warning: 5000, danger: 5000 });

function ConsoleToaster() {
  const notices = useSyncExternalStore(consoleNotices.subscribe, consoleNotices.notices, consoleNotices.notices);
  return (
    <OverlayToaster position={Position.TOP}>
      {notices.map((n) => (
        <Toast key={n.id} intent={n.intent} timeout={0} onDismiss={() => consoleNotices.dismiss(n.id)}
          message={<><strong>{n.title}</strong><div>{n.message}</div></>} />
      ))}
    </OverlayToaster>
  );
}

/** Appears after 50 px of scrolling. */
function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD_PX);
    window.addEventListener('scroll', onScroll, { passive: true });
    onScroll();
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!visible) return null;
  return <Button className="console-scroll-top" icon={<ChevronUpIcon />} aria-label="Scroll to top" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })} />;
}
