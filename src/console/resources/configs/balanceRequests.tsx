import { graphql } from '../../../gql';
import { formatMoney } from '../../../../domain/money';
import { requestScreen } from './customerRequests';

const BalanceRequestList = graphql(`
  query BalanceRequestList($SkipCount: Int!, $MaxResultCount: Int!, $Status: queryInput_Customer_GetCustomerBalanceRequests_Status) {
    list: Customer_GetCustomerBalanceRequests(SkipCount: $SkipCount, MaxResultCount: $MaxResultCount, Status: $Status) {
      totalCount data { id customerId customerName brandId brandName account amount reason status requestedBy requestedByName decidedAt decisionReason createdAt }
    }
  }
`);
const BalanceRequestCreate = graphql(`mutation BalanceRequestCreate($input: InsertCustomerBalanceRequestInput_Input) { row: Customer_InsertCustomerBalanceRequest(input: $input) { id status } }`);
const Approve = graphql(`mutation BalanceRequestApprove($id: Int!) { Customer_ApproveCustomerBalanceRequest(input: { id: $id }) { id status } }`);
const Reject = graphql(`mutation BalanceRequestReject($id: Int!, $reason: String!) { Customer_RejectCustomerBalanceRequest(input: { id: $id, reason: $reason }) { id status } }`);

/**
 * /Request — wallet and credit balance requests (SPEC.md 3 "customer wallet and credit balance
 * requests"): the main three ask, a company manager decides (requests.decideMoney), never the one
 * who asked; only approval pays, through the ledger, once.
 */
export const balanceRequestsScreen = requestScreen({
  path: '/Request',
  title: 'Wallet and Credit Requests',
  accounts: [{ value: 'wallet', label: 'Wallet' }, { value: 'credit', label: 'Credit' }],
  amount: { label: 'Amount (KD)', field: { min: 0.001, max: 100000 }, format: (amount) => formatMoney(amount) },
  operations: { list: BalanceRequestList, create: BalanceRequestCreate },
  decisions: { approve: Approve, reject: Reject, access: 'requests.decideMoney' },
});
