"""Tournament drills: the chat-host attack phase."""
