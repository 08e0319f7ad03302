// The event texts live in the domain (the web card writes them in the page's language, issue #29).
export { eventText, recipientLanguage, recipientSpeedUnit } from '@rastro/domain';
