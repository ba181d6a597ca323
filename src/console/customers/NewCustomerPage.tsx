import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link, useLocation } from 'wouter';
import { Button, Callout, Card, ControlGroup, FormGroup, H2, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { graphql } from '../../gql';
import { apiErrorOf, errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { storage, KEYS } from '../../lib/storage';
import { COUNTRIES } from '../../../domain/countries';
import './customers.css';
import { DEFAULT_PHONE_CODE, phoneProblem } from '../../../domain/phone';
import { MIN_PASSWORD_LENGTH, TEXT } from '../../../domain/constants';

const MyBrands = graphql(`query NewCustomerBrands { brands: Brand_GetBrandsForCurrentUser { id name } }`);
const Registrate = graphql(`mutation CustomerRegistrate($input: RegistrateInput_Input!) { customer: Customer_Registrate(input: $input) { id fullName phoneNumber } }`);

type Field = 'brandId' | 'phoneNumber' | 'fullName' | 'emailAddress' | 'gender' | 'birthDate' | 'password';
const PHONE_MESSAGE = { missing: TEXT.guest.phoneRequired, notANumber: TEXT.guest.invalidNumber, notAPhone: TEXT.guest.invalidPhone } as const;
/** The phone input's mask (SPEC.md 5): 3 digits, 5 digits and an optional one after the country code. */
const MAX_LOCAL_DIGITS = 9;
const formatLocal = (local: string) => (local.length > 3 ? `${local.slice(0, 3)} ${local.slice(3)}` : local);

/**
 * /customers/new-customer — staff register a customer (Customer/Registrate) for one of their
 * brands: phone (country code, Kuwait first, and the local digits, as the shop's phone input),
 * name, and optionally e-mail, gender, birth date and a first password. What was typed stays
 * when the server refuses it, with the server's message beside the field it names.
 */
export default function NewCustomerPage() {
  const [, navigate] = useLocation();
  const brands = (useQuery(MyBrands).data?.brands ?? []).flatMap((b) => (b ? [b] : []));
  const [values, setValues] = useState<Record<Field, string>>({
    brandId: storage.get(KEYS.managerBrandId) ?? '', phoneNumber: '', fullName: '', emailAddress: '', gender: '', birthDate: '', password: '',
  });
  const [code, setCode] = useState(DEFAULT_PHONE_CODE);
  const [local, setLocal] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [registrate, state] = useMutation(Registrate, { context: { silent: true } });
  const set = (field: Field, value: string) => { setValues((v) => ({ ...v, [field]: value })); setErrors((e) => ({ ...e, [field]: undefined })); };
  // The brand is derived, never set during a render (issue 23: an effect that set it on every render
  // crashed the page for anyone with two or more brands): one brand is the one; a chosen one (a brand
  // manager's current brand preselected) counts while it is one of theirs; otherwise the picker asks.
  const brandId = brands.length === 1 ? String(brands[0].id) : brands.some((b) => String(b.id) === values.brandId) ? values.brandId : '';

  const phone = local ? `+${code}${local}` : '';
  const check = (): Partial<Record<Field, string>> => {
    const found: Partial<Record<Field, string>> = {};
    if (!brandId) found.brandId = 'Brand is required.';
    const problem = phoneProblem(phone);
    if (problem) found.phoneNumber = PHONE_MESSAGE[problem];
    if (!values.fullName.trim()) found.fullName = TEXT.guest.nameRequired;
    if (values.password && values.password.length < MIN_PASSWORD_LENGTH) found.password = `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
    return found;
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const res = await registrate({ variables: { input: {
        brandId: Number(brandId), phoneNumber: phone, fullName: values.fullName.trim(),
        emailAddress: values.emailAddress.trim() || null, gender: values.gender || null, birthDate: values.birthDate || null,
        password: values.password || null,
      } } });
      const customer = res.data?.customer;
      if (!customer) throw new Error('The server did not answer the new customer.');
      notify('success', 'New Customer', `${customer.fullName} (${customer.phoneNumber}) is registered.`);
      navigate(`/customers/${customer.id}`);
    } catch (err) {
      // The form keeps everything typed; the server's field messages stand beside their fields.
      const byField: Partial<Record<Field, string>> = {};
      for (const v of apiErrorOf(err)?.abp?.validationErrors ?? []) {
        const field = v.members.map((m) => m.replace(/^input\./, '')).find((m): m is Field => m in values);
        if (field && !byField[field]) byField[field] = v.message.replace(/^[\w.]+:\s*/, '');
      }
      setErrors(byField);
      setFailure(apiErrorOf(err)?.abp?.message || errorMessage(err));
    }
  };
  const group = (field: Field, label: string, children: React.ReactNode, helper?: string) => (
    <FormGroup label={label} labelFor={`new-customer-${field}`} intent={errors[field] ? Intent.DANGER : Intent.NONE} helperText={errors[field] ?? helper}>
      {children}
    </FormGroup>
  );
  const intentOf = (field: Field) => (errors[field] ? Intent.DANGER : Intent.NONE);
  if (!brandId && brands.length > 1) return <BrandPicker brands={brands} onPick={(id) => set('brandId', String(id))} />;
  return (
    <div className="console-page new-customer-page" data-testid="new-customer-page">
      <p><Link href="/customers">Customers</Link> /</p>
      <H2>New Customer</H2>
      <Card style={{ maxWidth: 560 }}>
        <form onSubmit={submit} noValidate>
          {failure && <Callout intent="danger" title="The customer was not registered" role="alert">{failure}</Callout>}
          {group('brandId', 'Brand', (
            <HTMLSelect id="new-customer-brandId" fill value={brandId} disabled={brands.length < 2} onChange={(e) => set('brandId', e.target.value)}>
              <option value="">Choose…</option>
              {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
            </HTMLSelect>
          ), 'The customer becomes a customer of this brand.')}
          {group('phoneNumber', 'Phone number', (
            <ControlGroup>
              <HTMLSelect aria-label="Country code" value={code} onChange={(e) => { setCode(e.target.value); setErrors((x) => ({ ...x, phoneNumber: undefined })); }}>
                {COUNTRIES.map((c) => <option key={c.isoCode} value={c.phoneCode}>{c.isoCode} +{c.phoneCode}</option>)}
              </HTMLSelect>
              <InputGroup fill id="new-customer-phoneNumber" type="tel" inputMode="numeric" placeholder="500 00000" intent={intentOf('phoneNumber')}
                value={formatLocal(local)} onChange={(e) => { setLocal(e.target.value.replace(/\D/g, '').slice(0, MAX_LOCAL_DIGITS)); setErrors((x) => ({ ...x, phoneNumber: undefined })); }} />
            </ControlGroup>
          ))}
          {group('fullName', 'Full name', <InputGroup id="new-customer-fullName" value={values.fullName} maxLength={100} intent={intentOf('fullName')} onChange={(e) => set('fullName', e.target.value)} />)}
          {group('emailAddress', 'E-mail (optional)', <InputGroup id="new-customer-emailAddress" type="email" value={values.emailAddress} maxLength={256} intent={intentOf('emailAddress')} onChange={(e) => set('emailAddress', e.target.value)} />)}
          {group('gender', 'Gender (optional)', (
            <HTMLSelect id="new-customer-gender" fill value={values.gender} onChange={(e) => set('gender', e.target.value)}>
              <option value="">—</option><option value="male">Male</option><option value="female">Female</option>
            </HTMLSelect>
          ))}
          {group('birthDate', 'Birth date (optional)', <InputGroup id="new-customer-birthDate" type="date" value={values.birthDate} intent={intentOf('birthDate')} onChange={(e) => set('birthDate', e.target.value)} />)}
          {group('password', 'Password (optional)', (
            <InputGroup id="new-customer-password" type="password" autoComplete="new-password" value={values.password} maxLength={128} intent={intentOf('password')} onChange={(e) => set('password', e.target.value)} />
          ), 'Left empty, the customer sets one with "forgot password" in the shop.')}
          <Button type="submit" intent={Intent.PRIMARY} text="Register customer" loading={state.loading} />
        </form>
      </Card>
    </div>
  );
}

/** The first step for a user with two or more brands: which brand the customer joins. */
function BrandPicker({ brands, onPick }: { brands: { id: number; name: string }[]; onPick: (id: number) => void }) {
  return (
    <div className="console-page new-customer-page" data-testid="new-customer-brand-picker">
      <p><Link href="/customers">Customers</Link> /</p>
      <H2>New Customer</H2>
      <Card style={{ maxWidth: 560 }}>
        <p>Which brand does the customer join?</p>
        <div className="new-customer-brands" role="group" aria-label="Brand">
          {brands.map((b) => <Button key={b.id} large fill alignText="start" text={b.name} onClick={() => onPick(b.id)} />)}
        </div>
      </Card>
    </div>
  );
}
