import './support.css';
import { useEffect, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Button, Callout, Card, H2, H4, Tag } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { playTestAlert } from '../orders/feed/alertSound';
import { clockCheck, type ClockCheck } from './clock';

const SupportInfo = graphql(`
  query SupportInfo {
    info: Support_GetSupportInfo { serverTime branchPhoneNumber contacts { id role fullName phoneNumber emailAddress } }
  }
`);

const ROLE_LABEL: Record<string, string> = { BRAND_MANAGER: 'Brand manager', COMPANY_ADMIN: 'Company admin', ADMIN: 'Platform admin' };

type Info = { branchPhoneNumber?: string | null; contacts: { id: number; role: string; fullName: string; phoneNumber?: string | null; emailAddress?: string | null }[] };

/**
 * /SupportPage (docs/decisions.md "Support page"): checks of this screen that a shift depends on
 * (the alert sound, the clock the order timers use, the connection) and who to call.
 */
export default function SupportPage() {
  const client = useApolloClient();
  const [info, setInfo] = useState<Info | null>(null);
  const [clock, setClock] = useState<ClockCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sound, setSound] = useState<'idle' | 'playing' | 'played' | 'refused'>('idle');

  const check = async () => {
    setError(null);
    try {
      const sent = Date.now();
      const res = await client.query({ query: SupportInfo, fetchPolicy: 'network-only' });
      const received = Date.now();
      const answer = res.data?.info;
      if (!answer) throw new Error('The server did not answer.');
      setClock(clockCheck(sent, received, Date.parse(answer.serverTime)));
      setInfo({ branchPhoneNumber: answer.branchPhoneNumber, contacts: (answer.contacts ?? []).flatMap((c) => (c ? [c] : [])) });
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  useEffect(() => { void check(); }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const testSound = async () => {
    setSound('playing');
    setSound((await playTestAlert()) ? 'played' : 'refused');
  };

  return (
    <div className="console-page support-page">
      <H2>Support</H2>
      {error && <Callout intent="danger" title="The server could not be reached.">{error}</Callout>}
      <div className="support-grid">
        <Card className="support-card" aria-label="Check this screen">
          <H4>Check this screen</H4>
          <div className="support-check">
            <div>
              <strong>New-order alert</strong>
              <p>Play the sound a new order makes. If you hear nothing, turn the volume up and let this tab play sound.</p>
            </div>
            <Button text="Play the alert" onClick={() => void testSound()} loading={sound === 'playing'} />
            {sound === 'played' && <Tag intent="success" minimal>Played</Tag>}
            {sound === 'refused' && <Tag intent="danger" minimal>The browser blocked the sound</Tag>}
          </div>
          <div className="support-check">
            <div>
              <strong>Clock</strong>
              <p>Order timers and late colours use this device's clock.</p>
            </div>
            {clock && (clock.ok
              ? <Tag intent="success" minimal>Right to within {clock.toleranceSeconds} s</Tag>
              : <Tag intent="danger">{clock.message}</Tag>)}
          </div>
          <div className="support-check">
            <div>
              <strong>Connection</strong>
              <p>Time for one request to the server and back.</p>
            </div>
            {clock && <Tag intent={clock.roundTripMs > 1000 ? 'warning' : 'success'} minimal>{clock.roundTripMs} ms</Tag>}
            <Button minimal text="Check again" onClick={() => void check()} />
          </div>
        </Card>
        <Card className="support-card" aria-label="Who to call">
          <H4>Who to call</H4>
          {info?.branchPhoneNumber && (
            <p>Your branch: <a href={`tel:${info.branchPhoneNumber}`}>{info.branchPhoneNumber}</a></p>
          )}
          {info && !info.contacts.length && <p>You are at the top: nobody above you to call.</p>}
          <ul className="support-contacts">
            {info?.contacts.map((c) => (
              <li key={c.id}>
                <span className="support-contact-name">{c.fullName}</span>
                <span className="support-contact-role">{ROLE_LABEL[c.role] ?? c.role}</span>
                {c.phoneNumber && <a href={`tel:${c.phoneNumber}`}>{c.phoneNumber}</a>}
                {c.emailAddress && <a href={`mailto:${c.emailAddress}`}>{c.emailAddress}</a>}
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}
