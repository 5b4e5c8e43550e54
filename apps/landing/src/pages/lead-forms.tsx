import { MODULES } from '@erp/contract';
import { ErrorSummary, Field, type FormState, Honeypot, PostForm } from './fields';
import { Layout } from './layout';
import { MODULE_COPY } from './modules';

/** The two forms SPEC §8 names, each posting to its endpoint. */
export type LeadKind = 'contact' | 'demo';

const CONTACT_LABELS: Record<string, string> = {
  name: 'Your name',
  email: 'Work e-mail',
  company: 'Company',
  phone: 'Phone',
  message: 'Your message',
};
const DEMO_LABELS: Record<string, string> = {
  ...CONTACT_LABELS,
  message: 'Anything we should know',
  team_size: 'Number of users',
  modules_wanted: 'Modules you are interested in',
  preferred_date: 'Preferred date',
};

/** `/contact`, or the same page answering a refused `POST /api/contact` with what was typed. */
export function ContactPage(props: { origin: string; state: FormState }) {
  const { state } = props;
  return (
    <Layout
      title="Contact us"
      description="Questions about the modules, the API or a plan: write to us and a person will answer."
      path="/contact"
      origin={props.origin}
    >
      <div class="wrap narrow">
        <section aria-labelledby="contact-title">
          <h1 id="contact-title">Contact us</h1>
          <p class="section-intro">
            Questions about a module, the API or a plan? Write to us and a person will answer by
            e-mail.
          </p>
          <ErrorSummary errors={state.errors} labels={CONTACT_LABELS} />
          <PostForm action="/api/contact" label="Contact">
            <div class="two">
              <Field
                state={state}
                name="name"
                label={CONTACT_LABELS.name!}
                required
                autocomplete="name"
                maxlength={200}
              />
              <Field
                state={state}
                name="email"
                label={CONTACT_LABELS.email!}
                type="email"
                required
                autocomplete="email"
                maxlength={254}
              />
            </div>
            <div class="two">
              <Field
                state={state}
                name="company"
                label={CONTACT_LABELS.company!}
                autocomplete="organization"
                maxlength={200}
              />
              <Field
                state={state}
                name="phone"
                label={CONTACT_LABELS.phone!}
                type="tel"
                autocomplete="tel"
                maxlength={50}
              />
            </div>
            <Field
              state={state}
              name="message"
              label={CONTACT_LABELS.message!}
              required
              multiline
              maxlength={5000}
            />
            <Honeypot />
            <div>
              <button class="button" type="submit">
                Send message
              </button>
            </div>
          </PostForm>
        </section>
      </div>
    </Layout>
  );
}

/** `/demo`, or the same page answering a refused `POST /api/demo`. */
export function DemoPage(props: { origin: string; state: FormState }) {
  const { state } = props;
  const ticked = new Set([state.values.modules_wanted ?? []].flat());
  const modulesError = state.errors?.fields.modules_wanted;
  return (
    <Layout
      title="Book a demo"
      description="A 30-minute demo of the modules you need, with your questions answered by someone who knows your trade."
      path="/demo"
      origin={props.origin}
    >
      <div class="wrap narrow">
        <section aria-labelledby="demo-title">
          <h1 id="demo-title">Book a demo</h1>
          <p class="section-intro">
            Thirty minutes on the modules you pick, with your questions answered. We confirm the
            time by e-mail.
          </p>
          <ErrorSummary errors={state.errors} labels={DEMO_LABELS} />
          <PostForm action="/api/demo" label="Demo request">
            <div class="two">
              <Field
                state={state}
                name="name"
                label={DEMO_LABELS.name!}
                required
                autocomplete="name"
                maxlength={200}
              />
              <Field
                state={state}
                name="email"
                label={DEMO_LABELS.email!}
                type="email"
                required
                autocomplete="email"
                maxlength={254}
              />
            </div>
            <div class="two">
              <Field
                state={state}
                name="company"
                label={DEMO_LABELS.company!}
                required
                autocomplete="organization"
                maxlength={200}
              />
              <Field
                state={state}
                name="phone"
                label={DEMO_LABELS.phone!}
                type="tel"
                autocomplete="tel"
                maxlength={50}
              />
            </div>
            <div class="two">
              <Field
                state={state}
                name="team_size"
                label={DEMO_LABELS.team_size!}
                type="number"
                min={1}
              />
              <Field
                state={state}
                name="preferred_date"
                label={DEMO_LABELS.preferred_date!}
                type="date"
              />
            </div>
            <fieldset
              id="field-modules_wanted"
              aria-describedby={modulesError ? 'field-modules_wanted-error' : undefined}
            >
              <legend>
                {DEMO_LABELS.modules_wanted} <span class="hint">(optional)</span>
              </legend>
              {modulesError && (
                <p class="field-error" id="field-modules_wanted-error">
                  {modulesError}
                </p>
              )}
              <div class="checks">
                {MODULES.map((module) => (
                  <label>
                    <input
                      type="checkbox"
                      name="modules_wanted"
                      value={module}
                      checked={ticked.has(module)}
                    />
                    {MODULE_COPY[module].label}
                  </label>
                ))}
              </div>
            </fieldset>
            <Field
              state={state}
              name="message"
              label={DEMO_LABELS.message!}
              multiline
              maxlength={5000}
            />
            <Honeypot />
            <div>
              <button class="button" type="submit">
                Request a demo
              </button>
            </div>
          </PostForm>
        </section>
      </div>
    </Layout>
  );
}

/** Where a browser lands after a form was accepted (303 from the endpoint). */
export function ThanksPage(props: { origin: string; kind: LeadKind }) {
  const demo = props.kind === 'demo';
  return (
    <Layout
      title={demo ? 'Demo requested' : 'Message sent'}
      description="We received your request and will answer by e-mail."
      path={`/${props.kind}/thanks`}
      origin={props.origin}
      noindex
    >
      <div class="wrap narrow">
        <section aria-labelledby="thanks-title">
          <div class="notice ok" role="status">
            <h1 id="thanks-title">
              {demo ? 'Thank you, your demo is requested' : 'Thank you, your message is sent'}
            </h1>
            <p>{demo ? 'We will write to you to agree on a time.' : 'We will answer by e-mail.'}</p>
          </div>
          <p>
            <a href="/pricing">See the plans</a> or <a href="/">go back to the home page</a>.
          </p>
        </section>
      </div>
    </Layout>
  );
}
