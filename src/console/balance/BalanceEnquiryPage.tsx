import './balance.css';
import { useCallback, useEffect, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Callout, Card, H2, H4, HTMLTable, Spinner } from '@blueprintjs/core';
import { RefreshIcon } from '@blueprintjs/icons';
import { graphql } from '../../gql';
import { errorMessage } from '../../lib/errors';
import { moneyDecimal } from '../../../domain/money';

// Both calls are POSTs in SPEC.md 7 (the provider is asked afresh each time), so mutations here.
const Enquiry = graphql(`mutation BalanceEnquiry { accounts: PaymentDashboard_BalanceEnquiryAsync { provider adapter balance unit total last30Days average note } }`);
const EmailEnquiry = graphql(`mutation BalanceEnquiryEmail { accounts: PaymentDashboard_BalanceEnquiryAsyncSendGrid { provider adapter balance unit total last30Days average note } }`);

type Account = { provider: string; adapter: string; balance?: number | null; unit: string; total: number; last30Days: number; average?: number | null; note: string };
const ORDER = ['SMS', 'Payment', 'E-mail'];
const figure = (n: number | null | undefined, provider: string) =>
  n == null ? 'N/A' : provider === 'Payment' ? moneyDecimal(n) : String(n);

/** /Balance-Enquiry (SPEC.md 2.2): the three provider accounts, each with its average (N/A). */
export default function BalanceEnquiryPage() {
  const [ask] = useMutation(Enquiry, { context: { silent: true } });
  const [askEmail] = useMutation(EmailEnquiry, { context: { silent: true } });
  const [accounts, setAccounts] = useState<Account[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      const [a, b] = await Promise.all([ask(), askEmail()]);
      const all = [...(a.data?.accounts ?? []), ...(b.data?.accounts ?? [])].filter((x): x is Account => !!x);
      setAccounts(all.sort((x, y) => ORDER.indexOf(x.provider) - ORDER.indexOf(y.provider)));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  }, [ask, askEmail]);
  useEffect(() => { void load(); }, [load]);

  return (
    <div className="console-page balance-page">
      <div className="balance-head">
        <H2>Balance enquiry</H2>
        {loading && <Spinner size={16} aria-label="Loading" />}
        <Button icon={<RefreshIcon />} text="Ask again" onClick={() => void load()} disabled={loading} />
      </div>
      {error && <Callout intent="danger" title="The providers could not be asked.">{error}</Callout>}
      <div className="balance-cards">
        {accounts?.map((a) => (
          <Card key={a.provider} className="balance-card" aria-label={`${a.provider} account`}>
            <H4>{a.provider}</H4>
            <div className="balance-adapter">Adapter: {a.adapter}</div>
            <HTMLTable compact className="balance-figures">
              <tbody>
                <tr><th scope="row">Balance</th><td>{figure(a.balance, a.provider)}</td></tr>
                <tr><th scope="row">All time</th><td>{figure(a.total, a.provider)}</td></tr>
                <tr><th scope="row">Last 30 days</th><td>{figure(a.last30Days, a.provider)}</td></tr>
                <tr><th scope="row">Average</th><td>{figure(a.average, a.provider)}</td></tr>
              </tbody>
            </HTMLTable>
            <p className="balance-unit">Figures count {a.unit}.</p>
            <p className="balance-note">{a.note}</p>
          </Card>
        ))}
      </div>
    </div>
  );
}
