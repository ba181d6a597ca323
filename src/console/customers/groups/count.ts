/** "1 customer", "21 customers": a group's size wherever a group is shown or chosen as an audience. */
export const customersCount = (n: number) => `${n} ${n === 1 ? 'customer' : 'customers'}`;
