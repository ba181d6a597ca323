import { graphql } from '../../gql';

/** The Printer service (server/printing/routes.ts) and a branch's order settings (Branch/Update), through the gateway. */
export const BranchPrinters = graphql(`
  query BranchPrinters($branchId: Int!) {
    printers: Printer_GetBranchPrinters(branchId: $branchId) { id branchId name protocol productTypeIds language path lastPolledAt lastStatus isOnline pendingJobs }
  }
`);
export const BranchOrderSettings = graphql(`
  query BranchOrderSettings($id: Int!) {
    list: Branch_GetBranchesForCurrentUser(SkipCount: 0, MaxResultCount: 1, id: $id) { data { id brandId name autoAccept acceptanceDeadlineMinutes preparationMinutes } }
  }
`);
export const UpdateBranchOrderSettings = graphql(`
  mutation UpdateBranchOrderSettings($input: BranchUpdateInput_Input!) {
    row: Branch_Update(input: $input) { id autoAccept acceptanceDeadlineMinutes preparationMinutes }
  }
`);
export const BrandProductTypes = graphql(`
  query PrinterProductTypes($brandId: Int!) {
    types: ProductTypesAndSubtypes_GetProductTypeWithSubtypesDictionary(brandId: $brandId) { id name }
  }
`);
export const CreatePrinter = graphql(`
  mutation CreatePrinter($input: PrinterCreateInput_Input!) { printer: Printer_Create(input: $input) { id path } }
`);
export const UpdatePrinter = graphql(`
  mutation UpdatePrinter($input: PrinterUpdateInput_Input!) { printer: Printer_Update(input: $input) { id path name productTypeIds language } }
`);
export const DeletePrinter = graphql(`
  mutation DeletePrinter($id: Int!) { done: Printer_Delete(id: $id) }
`);
export const PrinterStates = graphql(`
  query PrinterStates($branchId: Int) {
    printers: Printer_GetPrinterStates(branchId: $branchId) { id branchId branchName name lastPolledAt isOnline pendingJobs }
  }
`);
export const OrderPrintJobs = graphql(`
  query OrderPrintJobs($orderId: Int!) {
    jobs: Printer_GetOrderPrintJobs(orderId: $orderId) { id printerId printerName kind status fetchCount resultCode createdAt doneAt }
  }
`);
export const ReprintOrder = graphql(`
  mutation ReprintOrder($input: PrinterReprintInput_Input!) { queued: Printer_Reprint(input: $input) }
`);
