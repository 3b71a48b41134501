"""Messaging bridges: Telegram, SMS (Twilio). One chat, one persistent session."""
