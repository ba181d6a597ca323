import { Link } from 'wouter';
import { Classes, NonIdealState } from '@blueprintjs/core';
import { SearchIcon } from '@blueprintjs/icons';

/** The one answer to another tenant's id, or an id that does not exist: the screen never guesses which (issue 23). */
export const NOT_YOURS = 'Not found, or not yours';

/** What an id the user cannot see shows instead of a misleading page, with a way back to the list. */
export function NotYours({ what, back, backLabel }: { what: string; back: string; backLabel: string }) {
  return (
    <NonIdealState
      className="console-page"
      icon={<SearchIcon size={48} />}
      title={NOT_YOURS}
      description={`There is no ${what} with this id among the ones you may see.`}
      action={<Link href={back} className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}>{backLabel}</Link>}
    />
  );
}
