package treekill
