import { Button, FormGroup, InputGroup } from '@blueprintjs/core';

/** Two days typed as a period (both inclusive, up to today) and the button that shows it: the dashboard's and /brands/qrscans'. */
export function DayRangeFields({ idPrefix, value, max, onChange }: {
  idPrefix: string; value: { from: string; to: string }; max: string; onChange: (v: { from: string; to: string }) => void;
}) {
  return <>
    <FormGroup label="From" labelFor={`${idPrefix}-from`} inline>
      <InputGroup id={`${idPrefix}-from`} type="date" value={value.from} max={max} onChange={(e) => onChange({ ...value, from: e.target.value })} />
    </FormGroup>
    <FormGroup label="To" labelFor={`${idPrefix}-to`} inline>
      <InputGroup id={`${idPrefix}-to`} type="date" value={value.to} max={max} onChange={(e) => onChange({ ...value, to: e.target.value })} />
    </FormGroup>
    <Button type="submit" intent="primary" text="Show" />
  </>;
}
