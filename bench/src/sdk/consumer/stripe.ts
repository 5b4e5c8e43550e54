/**
 * The same kind of file against Stripe's official types (`stripe` npm), the anchor of the
 * type-check section of `pnpm bench sdk`: a client, a typed create, filtered lists, a read by id.
 */
import Stripe from 'stripe';

const stripe = new Stripe('sk_test_k', { maxNetworkRetries: 2 });
const customer = await stripe.customers.create({ name: 'Müller GmbH', email: 'a@b.c' });
const charges = await stripe.charges.list({
  customer: customer.id,
  created: { gte: 1_700_000_000 },
  limit: 10,
});
const intents = await stripe.paymentIntents.search({ query: "status:'succeeded'", limit: 10 });
const one = await stripe.customers.retrieve(customer.id);
console.log(charges.data[0]?.amount, intents.data[0]?.amount, one.deleted ? null : one.name);
