import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { useParams } from 'wouter';
import { Alert, Button, Callout, Card, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { errorMessage, statusOf } from '../../lib/errors';
import { NotYours } from '../shell/NotYours';
import { notify } from '../../lib/notify';
import { formatMoney, fromFils, moneyDecimal, toFils } from '../../../domain/money';
import { CustomerOrders } from './CustomerOrders';
import { CustomerScans } from './CustomerScans';
import { dateTimeText } from '../../../domain/time';
import { PersonIcon } from '@blueprintjs/icons';

const Details = graphql(`
  query CustomerPageDetails($id: Int!) {
    customer: Customer_GetCustomerDetailsById(Id: $id) {
      id userName fullName phoneNumber emailAddress gender birthDate createdAt
      balances { brandId brandName wallet credit points punches freeItems }
    }
    brands: Brand_GetBrandsForCurrentUser { id name }
    cars: Cars_GetCustomerCarsForDashBoard(CustomerId: $id) { id plateNumber carBrandName carTypeName carColorName }
  }
`);
const Ledger = graphql(`
  query CustomerPageLedger($id: Int!, $skip: Int!) {
    ledger: Customer_GetCustomerLedger(CustomerId: $id, SkipCount: $skip, MaxResultCount: 10) {
      totalCount data { id brandId account amount reason referenceType referenceId createdByName createdAt }
    }
  }
`);
const SetWallet = graphql(`mutation CustomerSetWallet($input: UpdateCustomerWalletBalanceInput_Input) { Customer_UpdateCustomerWalletBalance(input: $input) { balance applied requestId } }`);
const SetCredit = graphql(`mutation CustomerSetCredit($input: UpdateCustomerCreditWalletBalanceInput_Input) { Customer_UpdateCustomerCreditWalletBalance(input: $input) { balance applied requestId } }`);
const SetPoints = graphql(`mutation CustomerSetPoints($input: UpdateCustomerPointsBalanceInput_Input) { Customer_UpdateCustomerPointsBalance(input: $input) { balance applied requestId } }`);
const SetPunches = graphql(`mutation CustomerSetPunches($input: UpdateCustomerFreeItemsAndPunchesInput_Input) { Customer_UpdateCustomerFreeItemsAndPunches(input: $input) { punches freeItems requestIds } }`);

const ACCOUNT_LABEL: Record<string, string> = { wallet: 'Wallet', credit: 'Credit', points: 'Points', punches: 'Punches', freeItems: 'Free items' };

/**
 * /customers/:id — the profile, balances per brand with the ledger history, and adjustments with a
 * reason; the customer's orders and reward card scans on their own tabs (`?tab=orders|scans` opens one).
 */
export default function CustomerPage() {
  const id = Number(useParams<{ id: string }>().id);
  const [skip, setSkip] = useState(0);
  const [tab, setTab] = useState(() => new URLSearchParams(window.location.search).get('tab') ?? 'profile');
  const details = useQuery(Details, { variables: { id }, skip: !Number.isInteger(id) });
  // The details speak for the page: a customer that is not found (or not the user's) is one notice, not one per query.
  const ledger = useQuery(Ledger, { variables: { id, skip }, skip: !Number.isInteger(id), context: { silent: true } });
  const customer = details.data?.customer;
  if (details.loading && !customer) return <Spinner />;
  if (!customer && (!Number.isInteger(id) || [403, 404].includes(statusOf(details.error) ?? 0))) return <NotYours what="customer" back="/customers" backLabel="Back to customers" />;
  if (!customer) return <NonIdealState icon={<PersonIcon />} title="Customer not found" description={details.error ? errorMessage(details.error) : undefined} />;
  const refresh = () => { void details.refetch(); void ledger.refetch(); };
  const rows = (ledger.data?.ledger?.data ?? []).flatMap((r) => (r ? [r] : []));
  const balances = customer.balances.flatMap((b) => (b ? [b] : []));
  const total = ledger.data?.ledger?.totalCount ?? 0;
  const brandName = (brandId: number) => details.data?.brands?.find((b) => b?.id === brandId)?.name ?? `Brand ${brandId}`;
  return (
    <div className="customer-page" data-testid="customer-page">
      <Card>
        <h2>{customer.fullName || customer.userName}</h2>
        <p>{customer.phoneNumber ?? '—'} · {customer.emailAddress ?? '—'} · {customer.gender ?? '—'} · {customer.birthDate ?? '—'}</p>
      </Card>
      <Tabs id="customer-tabs" selectedTabId={tab} onChange={(next) => setTab(String(next))} renderActiveTabPanelOnly>
      <Tab id="profile" title="Profile" panel={<>
      <Card>
        <h3>Balances</h3>
        <HTMLTable compact striped data-testid="customer-balances">
          <thead><tr><th>Brand</th><th>Wallet</th><th>Credit</th><th>Points</th><th>Punches</th><th>Free items</th></tr></thead>
          <tbody>
            {balances.map((b) => (
              <tr key={b.brandId}><td>{b.brandName}</td><td>{formatMoney(b.wallet)}</td><td>{formatMoney(b.credit)}</td><td>{b.points}</td><td>{b.punches}</td><td>{b.freeItems}</td></tr>
            ))}
            {!balances.length && <tr><td colSpan={6}>No wallet in your brands yet.</td></tr>}
          </tbody>
        </HTMLTable>
      </Card>
      <Card>
        <h3>Cars</h3>
        <ul data-testid="customer-cars">
          {(details.data?.cars ?? []).flatMap((c) => (c ? [<li key={c.id}>{c.carBrandName} {c.carTypeName}, {c.carColorName} · {c.plateNumber}</li>] : []))}
          {!details.data?.cars?.length && <li>No cars.</li>}
        </ul>
      </Card>
      <AdjustmentForm customerId={customer.id} customerName={customer.fullName || customer.userName} brands={(details.data?.brands ?? []).flatMap((b) => (b ? [{ id: b.id, name: b.name }] : []))} balances={balances} onDone={refresh} />
      <Card>
        <h3>Ledger</h3>
        <HTMLTable compact striped data-testid="customer-ledger">
          <thead><tr><th>When</th><th>Brand</th><th>Account</th><th>Change</th><th>Reason</th><th>By</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{dateTimeText(r.createdAt)}</td><td>{brandName(r.brandId)}</td><td>{ACCOUNT_LABEL[r.account] ?? r.account}</td>
                <td>{r.amount > 0 ? '+' : ''}{r.account === 'wallet' || r.account === 'credit' ? moneyDecimal(r.amount) : r.amount}</td>
                <td>{r.reason}</td><td>{r.createdByName ?? 'System'}</td>
              </tr>
            ))}
            {!rows.length && <tr><td colSpan={6}>No changes yet.</td></tr>}
          </tbody>
        </HTMLTable>
        <Button disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - 10))} text="Newer" />{' '}
        <Button disabled={skip + 10 >= total} onClick={() => setSkip(skip + 10)} text="Older" />
      </Card>
      </>} />
      <Tab id="orders" title="Orders" panel={<Card><CustomerOrders customerId={customer.id} /></Card>} />
      <Tab id="scans" title="Scans" panel={<Card><CustomerScans customerId={customer.id} /></Card>} />
      </Tabs>
    </div>
  );
}

type Balance = { brandId: number; wallet: number; credit: number; points: number; punches: number; freeItems: number };
type AdjustAccount = 'wallet' | 'credit' | 'points' | 'punches';

/** A change's amount with its sign ("+5.000 KD", "−3 points"), in fils for money so 0.1 + 0.2 reads right. */
function deltaText(from: number, to: number, unit: 'money' | string) {
  const diff = unit === 'money' ? fromFils(toFils(to) - toFils(from)) : to - from;
  const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
  return `${sign}${unit === 'money' ? formatMoney(Math.abs(diff)) : `${Math.abs(diff)} ${unit}`}`;
}

/** What one adjustment changes, in words ("wallet 10.000 KD → 4.250 KD (−5.750 KD)"), for its confirmation and its notice. */
function changeText(account: AdjustAccount, current: Balance | undefined, value: number, freeItems: number) {
  if (account === 'wallet' || account === 'credit') {
    const from = current?.[account] ?? 0;
    return `${ACCOUNT_LABEL[account].toLowerCase()} ${formatMoney(from)} → ${formatMoney(value)} (${deltaText(from, value, 'money')})`;
  }
  if (account === 'points') return `points ${current?.points ?? 0} → ${value} (${deltaText(current?.points ?? 0, value, 'points')})`;
  return `punches ${current?.punches ?? 0} → ${value} (${deltaText(current?.punches ?? 0, value, 'punches')}), free items ${current?.freeItems ?? 0} → ${freeItems} (${deltaText(current?.freeItems ?? 0, freeItems, 'free items')})`;
}

/**
 * One adjustment: the new balance of an account and a required reason; the server writes the
 * difference to the ledger. It asks first, naming the customer, the account and the change. Under
 * the four-eyes rule (docs/decisions.md "Loyalty: four eyes") a raise by anyone below ADMIN becomes
 * a request for another approver: the one notice then reads "Request sent for approval".
 */
function AdjustmentForm({ customerId, customerName, brands, balances, onDone }: { customerId: number; customerName: string; brands: { id: number; name: string }[]; balances: Balance[]; onDone(): void }) {
  const [brandId, setBrandId] = useState<number | null>(null);
  const [account, setAccount] = useState<AdjustAccount>('wallet');
  const [value, setValue] = useState('');
  const [freeItems, setFreeItems] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ctx = { context: { silent: true } };
  const [setWallet, w] = useMutation(SetWallet, ctx);
  const [setCredit, c] = useMutation(SetCredit, ctx);
  const [setPoints, pt] = useMutation(SetPoints, ctx);
  const [setPunches, p] = useMutation(SetPunches, ctx);
  const busy = w.loading || c.loading || pt.loading || p.loading;
  const brand = brandId ?? brands[0]?.id ?? null;
  const current = balances.find((b) => b.brandId === brand);
  const free = Number(freeItems || current?.freeItems || 0);
  const brandLabel = brands.find((b) => b.id === brand)?.name ?? '';
  const check = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (brand == null) return setError('Choose a brand.');
    if (!reason.trim()) return setError('Please give a reason.');
    if (value.trim() === '' || !Number.isFinite(Number(value))) return setError('Please enter the new balance.');
    setConfirming(true);
  };
  const save = async () => {
    setConfirming(false);
    if (brand == null) return;
    const input = { customerId, brandId: brand, balance: Number(value), reason };
    try {
      let asked: boolean;
      if (account === 'wallet') asked = !!(await setWallet({ variables: { input } })).data?.Customer_UpdateCustomerWalletBalance?.requestId;
      else if (account === 'credit') asked = !!(await setCredit({ variables: { input } })).data?.Customer_UpdateCustomerCreditWalletBalance?.requestId;
      else if (account === 'points') asked = !!(await setPoints({ variables: { input } })).data?.Customer_UpdateCustomerPointsBalance?.requestId;
      else {
        const res = await setPunches({ variables: { input: { customerId, brandId: brand, punches: Number(value), freeItems: free, reason } } });
        asked = (res.data?.Customer_UpdateCustomerFreeItemsAndPunches?.requestIds?.length ?? 0) > 0;
      }
      notify('success', asked ? 'Request sent for approval' : 'Saved', `${customerName}: ${changeText(account, current, Number(value), free)}${asked ? '. Another approver decides it.' : ''}`);
      setValue(''); setFreeItems(''); setReason('');
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Card>
      <h3>Adjust a balance</h3>
      <form onSubmit={check} aria-busy={busy} data-testid="adjust-form">
        <FormGroup label="Brand" labelFor="adjust-brand">
          <HTMLSelect id="adjust-brand" value={brand ?? ''} onChange={(e) => setBrandId(Number(e.target.value))} options={brands.map((b) => ({ value: b.id, label: b.name }))} />
        </FormGroup>
        <FormGroup label="Account" labelFor="adjust-account">
          <HTMLSelect id="adjust-account" value={account} onChange={(e) => setAccount(e.target.value as AdjustAccount)}
            options={[{ value: 'wallet', label: 'Wallet' }, { value: 'credit', label: 'Credit' }, { value: 'points', label: 'Points' }, { value: 'punches', label: 'Punches and free items' }]} />
        </FormGroup>
        <FormGroup label={account === 'punches' ? 'New punches' : account === 'points' ? 'New points' : 'New balance (KD)'} labelFor="adjust-value">
          <InputGroup id="adjust-value" value={value} onChange={(e) => setValue(e.target.value)} inputMode="decimal" />
        </FormGroup>
        {account === 'punches' && (
          <FormGroup label="New free items" labelFor="adjust-free">
            <InputGroup id="adjust-free" value={freeItems} onChange={(e) => setFreeItems(e.target.value)} inputMode="numeric" placeholder={String(current?.freeItems ?? 0)} />
          </FormGroup>
        )}
        <FormGroup label="Reason" labelFor="adjust-reason">
          <InputGroup id="adjust-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
        </FormGroup>
        {error && <Callout intent="danger" role="alert">{error}</Callout>}
        <Button type="submit" intent="primary" text="Save adjustment" loading={busy} />
      </form>
      <Alert isOpen={confirming} intent="primary" confirmButtonText="Confirm" cancelButtonText="Cancel" onConfirm={() => void save()} onCancel={() => setConfirming(false)}>
        <p data-testid="adjust-confirmation">Change {customerName}&apos;s {changeText(account, current, Number(value), free)}{brandLabel ? ` in ${brandLabel}` : ''}?</p>
        <p>Reason: {reason.trim()}</p>
      </Alert>
    </Card>
  );
}
