// Analysis module.
